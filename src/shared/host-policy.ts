import { BlockList, isIP } from 'node:net';

/**
 * Where remote sources may connect. Entries are host names (`api.example.com`, `*.example.com`),
 * addresses and CIDR ranges, v4 or v6. A host is refused when its name or any address it
 * resolves to is denied, or when an allow list is set and neither matches it: deny wins.
 */
export interface HostPolicy {
  /** Why `host` (a name or an address, before resolution) is refused, or undefined. */
  refusesHost(host: string): string | undefined;
  /** Why a resolved `address` of `host` is refused, or undefined. */
  refusesAddress(host: string, address: string): string | undefined;
}

/** Denied unless the deny list is set without `default`: link-local ranges and cloud metadata endpoints. */
export const DEFAULT_DENIED_HOSTS = [
  '169.254.0.0/16', // IPv4 link-local, including 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata)
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254/128', // AWS metadata over IPv6
  '100.100.100.200/32', // Alibaba Cloud metadata
  '0.0.0.0/8', // "this network": reaches the local machine on some systems
  '::/128', // the IPv6 unspecified address: reaches the local machine, as 0.0.0.0 does
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
] as const;

export interface HostPolicyLists {
  allow: string[];
  deny: string[];
}

/** Reads the two settings: unset deny is the default list, `default` inside a list stands for it, `none` empties it. */
export function hostPolicyLists(allowRaw: string | undefined, denyRaw: string | undefined): { lists: HostPolicyLists; problems: string[] } {
  const problems: string[] = [];
  const split = (raw: string | undefined) =>
    (raw ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const expand = (name: string, entries: string[]) => {
    const out: string[] = [];
    for (const entry of entries) {
      if (entry === 'default') out.push(...DEFAULT_DENIED_HOSTS);
      else if (entry === 'none') continue;
      else if (parseEntry(entry) === undefined) problems.push(`${name}: "${entry}" is not a host name, address or CIDR range`);
      else out.push(entry);
    }
    return out;
  };
  const deny = denyRaw === undefined || denyRaw.trim() === '' ? [...DEFAULT_DENIED_HOSTS] : expand('TOOLPLANE_SOURCE_HOSTS_DENY', split(denyRaw));
  const allow = expand('TOOLPLANE_SOURCE_HOSTS_ALLOW', split(allowRaw));
  return { lists: { allow, deny }, problems };
}

export function hostPolicy(lists: HostPolicyLists): HostPolicy {
  const allow = compile(lists.allow);
  const deny = compile(lists.deny);
  const restricted = lists.allow.length > 0;
  return {
    refusesHost(host) {
      const bare = unbracket(host).toLowerCase();
      if (isIP(bare)) return this.refusesAddress(bare, bare);
      if (deny.names(bare)) return `${bare} is denied (TOOLPLANE_SOURCE_HOSTS_DENY)`;
      return undefined;
    },
    refusesAddress(host, address) {
      const bare = unbracket(host).toLowerCase();
      const canonical = canonicalAddress(address);
      const denied = deny.names(bare) || deny.addresses.check(canonical, familyOf(canonical)) || deny.addresses.check(address, familyOf(address));
      // Connecting to an unspecified address reaches this machine's loopback: denied wherever loopback is.
      const deniedLoopback = !denied && UNSPECIFIED.has(canonical) && LOOPBACK.some((loopback) => deny.addresses.check(loopback, familyOf(loopback)));
      if (denied || deniedLoopback) {
        const why = deniedLoopback ? ' (TOOLPLANE_SOURCE_HOSTS_DENY): the unspecified address reaches loopback' : ' (TOOLPLANE_SOURCE_HOSTS_DENY)';
        return bare === address ? `${address} is denied${why}` : `${bare} resolves to ${address}, which is denied${why}`;
      }
      if (restricted && !allow.names(bare) && !allow.addresses.check(canonical, familyOf(canonical))) {
        return `${bare === address ? address : `${bare} (${address})`} is not in TOOLPLANE_SOURCE_HOSTS_ALLOW`;
      }
      return undefined;
    },
  };
}

type Entry = { kind: 'address'; address: string; prefix: number; family: 'ipv4' | 'ipv6' } | { kind: 'name'; name: string; wildcard: boolean };

function parseEntry(entry: string): Entry | undefined {
  const [raw, prefixText, extra] = entry.split('/');
  const address = unbracket(raw ?? '');
  const version = isIP(address);
  if (version) {
    const max = version === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) return undefined;
    return { kind: 'address', address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
  }
  if (prefixText !== undefined) return undefined;
  const name = entry.toLowerCase();
  const wildcard = name.startsWith('*.');
  const labels = (wildcard ? name.slice(2) : name).split('.');
  if (labels.some((label) => !/^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))) return undefined;
  return { kind: 'name', name: wildcard ? name.slice(1) : name, wildcard };
}

function compile(entries: string[]): { addresses: BlockList; names: (host: string) => boolean } {
  const addresses = new BlockList();
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of entries) {
    const parsed = parseEntry(entry);
    if (!parsed) continue;
    if (parsed.kind === 'address') addresses.addSubnet(parsed.address, parsed.prefix, parsed.family);
    else if (parsed.wildcard) suffixes.push(parsed.name);
    else exact.add(parsed.name);
  }
  const names = (host: string) => {
    const name = host.replace(/\.$/, '');
    return exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
  };
  return { addresses, names };
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

const UNSPECIFIED = new Set(['0.0.0.0', '::']);
const LOOPBACK = ['127.0.0.1', '::1'];

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/**
 * One spelling per address: an IPv4-mapped IPv6 address (`::ffff:169.254.169.254`,
 * `::ffff:a9fe:a9fe`) is the IPv4 address it carries, another IPv6 address its compressed lower-case
 * form (`0:0:0:0:0:0:0:0` is `::`). Anything else is returned as it is.
 */
function canonicalAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  let compressed: string;
  try {
    compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The loopback names a local browser or client may use to reach Toolplane. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** Names of this machine, used when Toolplane listens on every interface (HOST=0.0.0.0 or ::). */
export interface MachineNames {
  /** Addresses of the machine's interfaces (IPv6 without brackets). */
  addresses: readonly string[];
  hostname: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Which `Host` and `Origin` headers Toolplane answers: exact origins (scheme, host and port) and
 * the host[:port] values they imply. Both lookups are one Set probe, as they run on every request.
 */
export class AllowedOrigins {
  private readonly origins: ReadonlySet<string>;
  private readonly hosts: ReadonlySet<string>;

  private constructor(origins: Iterable<string>) {
    const originSet = new Set<string>();
    const hostSet = new Set<string>();
    for (const entry of origins) {
      const url = new URL(entry);
      originSet.add(url.origin);
      hostSet.add(url.host);
      // A client may name the default port or leave it out; browsers leave it out of Origin.
      const defaultPort = DEFAULT_PORTS[url.protocol];
      if (defaultPort !== undefined && url.port === '') hostSet.add(`${url.host}:${defaultPort}`);
    }
    this.origins = originSet;
    this.hosts = hostSet;
  }

  /** Exactly these origins (TOOLPLANE_ALLOWED_ORIGINS), already validated by the configuration. */
  static of(origins: readonly string[]): AllowedOrigins {
    return new AllowedOrigins(origins);
  }

  /**
   * The default: plain http on the port Toolplane listens on, under the loopback names and the
   * listen address; when listening on every interface, also under the machine's own addresses and hostname.
   */
  static forListener(listenHost: string, port: number, machine: MachineNames): AllowedOrigins {
    const names = new Set(LOOPBACK_NAMES);
    if (isWildcard(listenHost)) {
      for (const address of machine.addresses) names.add(asHostName(address));
      if (machine.hostname) names.add(machine.hostname.toLowerCase());
    } else {
      names.add(asHostName(listenHost));
    }
    const origins: string[] = [];
    for (const name of names) {
      try {
        origins.push(new URL(`http://${name}:${port}`).origin);
      } catch {
        // A name no URL can carry (an IPv6 address with a zone) is not one a browser can send either.
      }
    }
    return new AllowedOrigins(origins);
  }

  /** The `Host` header names an allowed origin (compared without case; a missing Host is refused). */
  allowsHost(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  /** A browser's `Origin` (its exact serialization) is allowed; `null` and anything else are not. */
  allowsOrigin(origin: string): boolean {
    return this.origins.has(origin.toLowerCase());
  }

  /** The allowed origins, for logs and error messages. */
  list(): string[] {
    return [...this.origins];
  }
}

export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

function asHostName(address: string): string {
  const bare = address.startsWith('[') ? address.slice(1, -1) : address;
  return bare.includes(':') ? `[${bare.toLowerCase()}]` : bare.toLowerCase();
}

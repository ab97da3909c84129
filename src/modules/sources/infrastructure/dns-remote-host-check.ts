import { lookup } from 'node:dns/promises';
import type { HostPolicy } from '../../../shared/host-policy.js';
import { RemoteHostCheck } from '../domain/ports.js';

/**
 * Registration's view of the source host policy: the host as written, then every address the name
 * resolves to now. Connections are checked again when they are made (the name may resolve
 * elsewhere by then); a name that does not resolve is left to the connection attempt to report.
 */
export class DnsRemoteHostCheck extends RemoteHostCheck {
  constructor(private readonly policy: HostPolicy) {
    super();
  }

  async problem(url: URL): Promise<string | undefined> {
    const hostname = url.hostname;
    const literal = this.policy.refusesHost(hostname);
    if (literal) return literal;
    let addresses: { address: string }[];
    try {
      addresses = await lookup(hostname.replace(/^\[|\]$/g, ''), { all: true });
    } catch {
      return undefined;
    }
    for (const { address } of addresses) {
      const reason = this.policy.refusesAddress(hostname, address);
      if (reason) return reason;
    }
    return undefined;
  }
}

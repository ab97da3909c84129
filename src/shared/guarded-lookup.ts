import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { HostPolicy } from './host-policy.js';

/** The code of a connection the source host policy refused. */
export const HOST_DENIED = 'SOURCE_HOST_DENIED';

export class HostDeniedError extends Error {
  readonly code = HOST_DENIED;
  constructor(reason: string) {
    super(`connection refused by the source host policy: ${reason}`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * `dns.lookup` as sockets call it, refusing a name when any address it resolves to is denied. Used
 * as the connect-time lookup, the check holds against a name that resolves elsewhere at connect
 * time than when it was registered (DNS rebinding), and the socket connects to an address it
 * checked. Sockets skip the lookup for a literal address: check those with `refusesHost` first.
 */
export function guardedLookup(policy: HostPolicy) {
  return (hostname: string, options: LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const done = (typeof options === 'function' ? options : callback)!;
    const wanted: LookupOptions = typeof options === 'object' ? options : typeof options === 'number' ? { family: options } : {};
    dnsLookup(hostname, { ...wanted, all: true }, (error, addresses) => {
      if (error) return done(error, wanted.all ? [] : '');
      for (const { address } of addresses) {
        const reason = policy.refusesAddress(hostname, address);
        if (reason) return done(new HostDeniedError(reason) as NodeJS.ErrnoException, wanted.all ? [] : '');
      }
      if (wanted.all) return done(null, addresses);
      const first = addresses[0];
      if (!first) return done(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      done(null, first.address, first.family);
    });
  };
}

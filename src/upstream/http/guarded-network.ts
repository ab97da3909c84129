import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { FetchLike } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import type { HostPolicy } from '../../shared/host-policy.js';
import { fetchWithNetworkDetail } from '../network-fetch.js';

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
 * time than when it was registered (DNS rebinding).
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

/**
 * fetch for remote upstreams: a literal address is checked before connecting, a name at connect
 * time through {@link guardedLookup}; network failures keep their system error code.
 */
export function guardedFetch(policy: HostPolicy): FetchLike {
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(policy) } });
  const fetch: FetchLike = (url, init) => {
    const reason = policy.refusesHost(new URL(url).hostname);
    if (reason) return Promise.reject(new HostDeniedError(reason));
    return undiciFetch(url, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
  };
  return (url, init) => fetchWithNetworkDetail(url, init, fetch);
}

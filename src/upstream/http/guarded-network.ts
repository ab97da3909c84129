import type { FetchLike } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import type { HostPolicy } from '../../shared/host-policy.js';
import { guardedLookup, HostDeniedError } from '../../shared/guarded-lookup.js';
import { fetchWithNetworkDetail } from '../network-fetch.js';

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

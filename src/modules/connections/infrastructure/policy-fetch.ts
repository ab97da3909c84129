import { Agent, fetch as undiciFetch } from 'undici';
import { guardedLookup, HostDeniedError } from '../../../shared/guarded-lookup.js';
import type { HostPolicy } from '../../../shared/host-policy.js';

/** The most of an authorization server's answer that is read. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** Why Toolplane will not send an OAuth request to `url`: https only, or http to a loopback host. */
export function oauthUrlProblem(url: URL): string | undefined {
  if (url.username || url.password) return `${url.origin} embeds credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `${url.origin} must use https (http only on a loopback address)`;
}

function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * fetch for OAuth requests to upstreams' authorization and resource servers: https, or http on
 * loopback (and only where the source host policy lets loopback be reached); every address checked
 * against the source host policy at connect time; redirects not followed; a time limit; the answer
 * read up to a bound.
 */
export function policyFetch(policy: HostPolicy, timeoutMs: number): { fetch: typeof fetch; close(): Promise<void> } {
  const agent = new Agent({ connect: { lookup: guardedLookup(policy) } });
  const bounded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const problem = oauthUrlProblem(url);
    if (problem) throw new Error(`refused to reach ${problem}`);
    const refusal = policy.refusesHost(url.hostname);
    if (refusal) throw new HostDeniedError(refusal);
    const signal = init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    const answer = await undiciFetch(url, { ...(init as object), redirect: 'manual', signal, dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (answer.body) {
      for await (const chunk of answer.body) {
        size += chunk.byteLength;
        if (size > MAX_ANSWER_BYTES) {
          await answer.body.cancel().catch(() => undefined);
          throw new Error(`${url.origin} answered more than ${MAX_ANSWER_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
    }
    const headers = new Headers();
    answer.headers.forEach((value, name) => headers.append(name, value));
    const nullBody = answer.status === 204 || answer.status === 304 || (answer.status >= 100 && answer.status < 200);
    return new Response(nullBody ? null : Buffer.concat(chunks), { status: answer.status, statusText: answer.statusText, headers });
  };
  return { fetch: bounded as typeof fetch, close: () => agent.destroy().catch(() => undefined) };
}

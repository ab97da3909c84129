import type { FetchLike } from '@modelcontextprotocol/client';
import { activeTrace } from '../shared/active-trace.js';

/**
 * `fetch` whose network failures keep their system error code (ECONNREFUSED, ENOTFOUND, ...) in
 * the message. The SSE transport flattens errors into text, and a cause from another realm
 * would otherwise be lost, leaving only "fetch failed".
 */
export const fetchWithNetworkDetail = async (url: string | URL, init?: RequestInit, base: FetchLike = fetch): Promise<Response> => {
  try {
    return await base(url, withTraceHeaders(init));
  } catch (error) {
    // A connection the source host policy refused says why, not just "fetch failed".
    const denied = causeWithCode(error, 'SOURCE_HOST_DENIED');
    if (denied) throw denied;
    const code = systemCodeOf(error);
    // Duck-typed: the error may come from another realm, where instanceof Error fails.
    const message = (error as { message?: unknown } | null)?.message;
    if (code && typeof message === 'string' && !message.includes(code)) {
      throw new TypeError(`${message}: ${code}`, { cause: error });
    }
    throw error;
  }
};

/** The request with the active span's trace context in its headers (`traceparent`, …); as it was when none is recording. */
function withTraceHeaders(init: RequestInit | undefined): RequestInit | undefined {
  const carrier = activeTrace.carrier();
  if (!carrier) return init;
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(carrier)) if (!headers.has(name)) headers.set(name, value);
  return { ...init, headers };
}

function causeWithCode(error: unknown, wanted: string): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if ((current as { code?: unknown }).code === wanted) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+|CERT_[A-Z_]+|[A-Z_]+_CERT[A-Z_]*|UNABLE_TO_[A-Z_]+)$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

import type { FetchLike } from '@modelcontextprotocol/client';

/** How long the probe waits for the first event, and how much of the stream it reads. */
const PROBE_MS = 2000;
const PROBE_BYTES = 4096;

/**
 * Whether `url` serves the legacy HTTP+SSE transport: a GET asking for an event stream is
 * answered with one whose first event is `endpoint` (where that transport's messages are posted).
 * Asked after a Streamable HTTP POST was refused, to say which transport the server speaks.
 */
export async function speaksLegacySse(url: URL, headers: Record<string, string>, fetch: FetchLike, signal: AbortSignal): Promise<boolean> {
  const abort = new AbortController();
  const stop = () => abort.abort();
  const timer = setTimeout(stop, PROBE_MS);
  signal.addEventListener('abort', stop, { once: true });
  try {
    const response = await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' }, signal: abort.signal });
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) return false;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (text.length < PROBE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // An event ends at a blank line; the first one tells.
      const end = text.search(/\r?\n\r?\n/);
      if (end !== -1) return /^event:\s*endpoint\s*$/m.test(text.slice(0, end));
    }
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
    abort.abort();
  }
}

import { SSEClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { untilClosed } from '../../shared/until-closed.js';

/**
 * The legacy HTTP+SSE transport, bound to the server session of its first event stream. Such a
 * session lives as long as its stream; once the stream ends (an idle timeout, a proxy, a server
 * restart) the SDK's EventSource would open another, on a new session this client never
 * initialized — one that knows none of the capabilities it declared (server-everything then lists
 * none of the tools it offers by declared capability). The transport closes instead, so that the
 * connection is made again with an `initialize`.
 */
export function sessionBoundSseTransport(url: URL, headers: Record<string, string>, fetch: FetchLike): SSEClientTransport {
  let opened = false;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    void transport.close();
  };
  const transport = new SSEClientTransport(url, {
    requestInit: { headers },
    fetch,
    eventSourceInit: {
      fetch: async (input, init) => {
        if (opened) {
          end();
          throw new Error('the event stream ended, and the server session with it');
        }
        opened = true;
        const response = await fetch(input, init);
        if (!response.body) return response;
        return new Response(untilClosed(response.body, end).stream, { status: response.status, statusText: response.statusText, headers: response.headers });
      },
    },
  });
  return transport;
}

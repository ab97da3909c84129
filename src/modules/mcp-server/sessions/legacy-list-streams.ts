import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import { untilClosed } from '../../../shared/until-closed.js';

interface ListStream {
  server: Server;
  /** The endpoint it listens to (its surface key). */
  surface: string;
  /** The session it was opened on (a session id Toolplane issued for this endpoint), if any. */
  sessionId?: string;
  /** Ends the HTTP response (closing the server alone leaves the client's stream open). */
  end: () => void;
  /**
   * The request it answers, held while the stream is open: a Request's signal follows the signal
   * it was made with only as long as the Request lives (undici holds it weakly), so once nothing
   * held it, a garbage collection would leave the stream deaf to its client's going away.
   */
  request: Request;
}

/**
 * Standalone GET streams of sessionless 2025-era clients: the one thing such a client can listen
 * on. Each stream has a server instance of its own that stays connected while the client reads,
 * and hears `notifications/tools/list_changed` when the catalog it lists changes.
 */
export class LegacyListStreams {
  private readonly streams = new Set<ListStream>();
  /** The streams open on each session. */
  private readonly sessions = new Map<string, Set<ListStream>>();

  /** @param maxStreams streams open at most per process; past it a GET is answered 503. */
  constructor(private readonly maxStreams = 10_000) {}

  get size(): number {
    return this.streams.size;
  }

  async open(server: Server, request: Request, authInfo: AuthInfo, surface = '', sessionId?: string): Promise<Response> {
    if (this.streams.size >= this.maxStreams) {
      void server.close().catch(() => undefined);
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32000, message: `Too many open streams (${this.maxStreams}); try again later.` }, id: null },
        { status: 503, headers: { 'Retry-After': '5' } },
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const stream: ListStream = { server, surface, ...(sessionId !== undefined ? { sessionId } : {}), end: () => undefined, request };
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.streams.delete(stream);
      this.bySession(stream, 'delete');
      void server.close().catch(() => undefined);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      close();
      return response;
    }
    const body = untilClosed(response.body, close);
    stream.end = body.end;
    this.streams.add(stream);
    this.bySession(stream, 'add');
    request.signal.addEventListener('abort', close, { once: true });
    return new Response(body.stream, { status: response.status, headers: response.headers });
  }

  /** Whether a stream is open here on session `sessionId`. */
  hasSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Tells the streams opened on session `sessionId` something. */
  async notifySession(sessionId: string, notification: { method: string; params: Record<string, unknown> }): Promise<void> {
    const streams = [...(this.sessions.get(sessionId) ?? [])];
    await Promise.all(streams.map(({ server }) => server.notification(notification as Parameters<Server['notification']>[0]).catch(() => undefined)));
  }

  /** `on`: only the streams of the endpoints (surface keys) it accepts; all without it. */
  notifyToolsChanged(on?: (surface: string) => boolean): void {
    for (const { server, surface } of this.streams) if (!on || on(surface)) void server.sendToolListChanged().catch(() => undefined);
  }

  private bySession(stream: ListStream, change: 'add' | 'delete'): void {
    if (stream.sessionId === undefined) return;
    const streams = this.sessions.get(stream.sessionId) ?? new Set<ListStream>();
    streams[change](stream);
    if (streams.size > 0) this.sessions.set(stream.sessionId, streams);
    else this.sessions.delete(stream.sessionId);
  }

  async closeAll(): Promise<void> {
    const streams = [...this.streams];
    this.streams.clear();
    this.sessions.clear();
    for (const stream of streams) stream.end();
    await Promise.allSettled(streams.map(({ server }) => server.close()));
  }
}

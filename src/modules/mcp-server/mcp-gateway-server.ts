import { BeforeApplicationShutdown, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  type AuthInfo,
  type McpHttpHandler,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { authInfoOf, exchangeOf } from './http/exchange-auth-info.js';
import { LegacyListStreams } from './sessions/legacy-list-streams.js';
import { untilClosed } from '../../shared/until-closed.js';
import { declaresInputCapabilities, LegacySessions } from './sessions/legacy-sessions.js';
import { CatalogSnapshots } from '../catalog/application/catalog-snapshots.js';
import { GroupViews } from '../catalog/application/group-views.js';
import type { ServedEra } from './calls/call-result.js';
import type { LazyAnswerStream } from './http/lazy-answer-stream.js';
import { McpToolServers, SERVER_INFO } from './mcp-tool-servers.js';
import { type McpExchange, type McpSurface } from './mcp-exchange.js';
import type { StatelessToolCall } from './calls/stateless-tool-call.js';
import { isRecord } from '../../shared/is-record.js';
import type { CallerSignal } from '../../shared/caller-signal.js';
import { WorkMetrics } from '../../shared/work-metrics.js';
import { SecretCipher } from '../../shared/crypto/secret-cipher.js';
import { SessionNotices } from '../../shared/session-notices.js';
import { claimsOfInitialize, isInitialize, SealedSessions } from './sessions/sealed-session.js';

/** The revisions whose JSON-RPC framing includes batches; later ones removed them. */
const BATCH_REVISIONS = new Set(['2025-03-26']);

/**
 * Toolplane's downstream MCP endpoint, HTTP-framework agnostic: a web-standard Request (body
 * already read and parsed) in, a Response out. One endpoint serves both protocol eras:
 *
 * - 2026-07-28 requests go to the SDK's stateless handler (`createMcpHandler`): `server/discover`,
 *   per-request `_meta`, the validation ladder (versions, `Mcp-Method`/`Mcp-Name` headers),
 *   `subscriptions/listen`, a JSON answer that turns into an SSE stream only when progress is
 *   relayed. One handler per surface lives as long as the process.
 * - 2025-era requests (`initialize`, then every request on its own, no session) are answered
 *   statelessly on a per-request streamable HTTP transport with a plain JSON response — or an SSE
 *   stream when progress or log messages may have to precede the answer, the only way to deliver
 *   them. Sessions only where they are needed (LegacySessions): for a client that can answer
 *   server-to-client requests. A GET opens the standalone stream (LegacyListStreams without a
 *   session), which hears of tool-list changes.
 * - The most common request of both eras, a plain stateless `tools/call`, skips all of the above
 *   (serveStatelessCall; fastify-mcp-routes recognises it).
 *
 * A `notifications/cancelled` (2025-era clients send it as a separate POST) aborts the call it
 * names; a closed request stream aborts its own call. Either reaches ExecuteTool's AbortSignal.
 */
@Injectable()
export class McpGatewayServer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('mcp-server');
  private readonly modern: Record<McpSurface['kind'], McpHttpHandler>;
  private readonly sessions: LegacySessions;
  private readonly listStreams = new LegacyListStreams();
  private readonly stopListening: () => void;
  private readonly stopListeningToGroups: () => void;
  private readonly stopHearingSessions: () => void;
  private closing = false;

  /** 2025-era session ids any process can read. */
  readonly sealedSessions: SealedSessions;

  constructor(
    @Inject(McpToolServers) private readonly servers: McpToolServers,
    @Inject(CatalogSnapshots) catalog: CatalogSnapshots,
    @Inject(SecretCipher) cipher: SecretCipher,
    @Inject(GroupViews) groups: GroupViews,
    @Optional() @Inject(WorkMetrics) metrics?: WorkMetrics,
    @Optional() @Inject(SessionNotices) private readonly sessionNotices: SessionNotices = new SessionNotices(),
  ) {
    this.sessions = new LegacySessions(undefined, metrics && ((seconds) => metrics.mcpSessionEnded('server', 'tcp', seconds)));
    this.sealedSessions = new SealedSessions(cipher);
    const handler = () =>
      createMcpHandler((ctx: McpRequestContext) => this.servers.create(exchangeFor(ctx.authInfo), 'modern'), {
        legacy: 'reject',
        responseMode: 'auto',
        onerror: (error) => this.logger.debug(error.message),
      });
    this.modern = { all: handler(), source: handler(), group: handler(), gateway: handler() };
    // 2026-07-28 subscribers (subscriptions/listen) hear when the catalog they list has changed.
    // 2025-era sessions and standalone streams hear it as notifications/tools/list_changed.
    this.stopListening = catalog.onToolsChanged(() => {
      this.modern.all.notify.toolsChanged();
      this.modern.source.notify.toolsChanged();
      this.modern.group.notify.toolsChanged();
      this.sessions.notifyToolsChanged();
      this.listStreams.notifyToolsChanged();
    });
    // A group's selection or overrides changed (here or in another process): its clients list again.
    this.stopListeningToGroups = groups.onGroupsChanged(() => {
      this.modern.group.notify.toolsChanged();
      this.sessions.notifyToolsChanged((surface) => surface.startsWith(GROUP_SURFACE));
      this.listStreams.notifyToolsChanged((surface) => surface.startsWith(GROUP_SURFACE));
    });
    // What another process had to tell a session whose stream is open here.
    this.stopHearingSessions = this.sessionNotices.onNotice((sessionId, body) => {
      const relayed = relayedOf(body);
      if (relayed && this.isListening(sessionId, relayed.principalId)) void this.notifyHere(sessionId, relayed.principalId, relayed.notification);
    });
  }

  /**
   * Answers one HTTP exchange. `parsedBody` is the JSON body when it parsed (a POST whose body is
   * not JSON leaves it undefined and keeps its bytes in `request`, for the parse error).
   */
  async handle(request: Request, parsedBody: unknown, exchange: McpExchange): Promise<Response> {
    const modern = this.modern[exchange.surface.kind];
    const authInfo = authInfoOf(exchange);
    const method = request.method.toUpperCase();
    if (this.closing) return jsonRpcError(503, -32000, 'Toolplane is shutting down; try another instance or again shortly.', idOf(parsedBody), { 'Retry-After': '1' });
    const sessionId = request.headers.get('mcp-session-id') ?? undefined;
    const owner = { principalId: exchange.principal.id, surface: surfaceKey(exchange.surface) };
    const session = sessionId === undefined ? undefined : this.sessions.find(sessionId, owner);
    if (session) return session.transport.handleRequest(request, { parsedBody, authInfo });
    if (sessionId !== undefined && this.sessions.wasEnded(sessionId)) {
      return jsonRpcError(404, -32001, 'Session not found: it was terminated; initialize again.', idOf(parsedBody));
    }
    // A sealed session this process holds no state for has nothing to end.
    if (method === 'DELETE' && exchange.session) return new Response(null, { status: 200 });
    if (method === 'GET') return this.openListStream(request, exchange, authInfo);
    if (method !== 'POST') {
      // DELETE names a session: one this process does not hold (another may).
      if (method === 'DELETE') return jsonRpcError(404, -32001, 'Session not found.', null);
      return jsonRpcError(405, -32000, 'Method not allowed: send JSON-RPC messages with POST, or GET for the standalone stream.', null, { Allow: 'GET, POST, DELETE' });
    }
    if (parsedBody === undefined || !isJsonContentType(request.headers.get('content-type'))) {
      // The SDK answers these with its own errors: 415, or -32700 for a body that is not JSON.
      return modern.fetch(request, { authInfo });
    }
    const cancellation = cancellationOf(parsedBody);
    if (cancellation) {
      this.servers.calls.cancel(exchange.principal.id, cancellation.requestId, cancellation.reason);
      return new Response(null, { status: 202 });
    }
    if (Array.isArray(parsedBody) && !BATCH_REVISIONS.has(request.headers.get('mcp-protocol-version') ?? '2025-03-26')) {
      return jsonRpcError(400, -32600, 'Invalid Request: JSON-RPC batches are not part of this protocol revision; send one message per request.', null);
    }
    if (await isLegacyRequest(request, parsedBody)) {
      // Every 2025-era client gets a session id at initialize that any process can read (sealed claims).
      const sealedId = isInitialize(parsedBody) ? this.sealedSessions.issue(claimsOfInitialize(parsedBody, owner)) : undefined;
      if (declaresInputCapabilities(parsedBody)) return this.sessions.open(this.servers.create(exchange, 'legacy'), request, parsedBody, authInfo, owner, sealedId === undefined ? undefined : () => sealedId);
      const response = await this.serveLegacy(request, parsedBody, exchange, authInfo);
      return sealedId && response.ok ? withHeader(response, 'mcp-session-id', sealedId) : response;
    }
    if (!acceptsAnAnswer(request.headers.get('accept'))) {
      return jsonRpcError(406, -32000, 'Not Acceptable: accept application/json and text/event-stream', idOf(parsedBody));
    }
    return modern.fetch(request, { authInfo, parsedBody });
  }

  /** Whether new requests are taken (false once shutdown began: they get 503). */
  get accepting(): boolean {
    return !this.closing;
  }

  /**
   * Serves a plain stateless `tools/call` (see recognizeStatelessToolCall) without a per-exchange
   * SDK server: the call runs exactly as the SDK's handler runs it, and the answer is encoded as
   * the SDK encodes it for the era (a 2026-07-28 result says `resultType` and carries the server's
   * identity in `_meta`). Notifications turn the answer into an SSE stream; a caller that went
   * away gets no answer.
   */
  async serveStatelessCall(call: StatelessToolCall, exchange: McpExchange, signal: CallerSignal, stream: LazyAnswerStream): Promise<void> {
    try {
      const result = await this.servers.callStateless(exchange, call, signal, (notification) => stream.notify({ jsonrpc: '2.0', ...notification }));
      if (!signal.aborted) stream.answer({ result: encodeResult(call.era, result), jsonrpc: '2.0', id: call.id });
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof ProtocolError)) this.logger.warn({ msg: `tools/call failed: ${error instanceof Error ? error.message : String(error)}`, requestId: exchange.requestId });
      const { code, message, data } = error instanceof ProtocolError ? error : { code: -32603, message: 'Internal error', data: undefined };
      // As the SDK answers: a missing client capability is HTTP 400 on 2026-07-28, every other error 200.
      const status = call.era === 'modern' && code === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : 200;
      stream.answer({ jsonrpc: '2.0', id: call.id, error: { code, message, ...(data !== undefined ? { data } : {}) } }, status);
    }
  }

  /**
   * Tells a 2025-era session's client something outside any request: on the standalone stream of
   * the session this process holds, or on the streams opened here with the session's id; when
   * neither is here, the other processes are told (SessionNotices), and one that has it tells it.
   */
  async notifySession(sessionId: string, principalId: string, notification: SessionNotification): Promise<void> {
    if (!this.isListening(sessionId, principalId)) return this.sessionNotices.relay(sessionId, JSON.stringify({ principalId, notification }));
    await this.notifyHere(sessionId, principalId, notification);
  }

  private async notifyHere(sessionId: string, principalId: string, notification: SessionNotification): Promise<void> {
    await Promise.all([this.sessions.notify(sessionId, principalId, notification), this.listStreams.notifySession(sessionId, notification)]);
  }

  /** Whether a 2025-era session's client may hear something here: this process holds the session, or a stream opened on it. */
  isListening(sessionId: string, principalId: string): boolean {
    return this.sessions.holds(sessionId, principalId) || this.listStreams.hasSession(sessionId);
  }

  beforeApplicationShutdown(): Promise<void> {
    // Ends open subscriptions/listen streams, so that the HTTP server can close.
    // From now on no stream or session opens (a client whose stream just ended would reconnect at once).
    this.closing = true;
    this.stopListening();
    this.stopListeningToGroups();
    this.stopHearingSessions();
    return Promise.all([...Object.values(this.modern).map((handler) => handler.close()), this.sessions.closeAll(), this.listStreams.closeAll()]).then(() => undefined);
  }

  /** A 2025-era standalone stream without a session: it carries tool-list changes. */
  private async openListStream(request: Request, exchange: McpExchange, authInfo: AuthInfo): Promise<Response> {
    try {
      return await this.listStreams.open(this.servers.create(exchange, 'legacy'), request, authInfo, surfaceKey(exchange.surface), exchange.sessionId);
    } catch (error) {
      this.logger.warn({ msg: `2025-era stream failed: ${error instanceof Error ? error.message : String(error)}`, requestId: exchange.requestId });
      return jsonRpcError(500, -32603, 'Internal error', null);
    }
  }

  /** A 2025-era message, served statelessly (the SDK's stateless idiom, JSON unless notifications may have to stream). */
  private async serveLegacy(request: Request, parsedBody: unknown, exchange: McpExchange, authInfo: AuthInfo): Promise<Response> {
    const server = this.servers.create(exchange, 'legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !mayNotify(parsedBody) });
    let closed = false;
    const teardown = () => {
      if (closed) return;
      closed = true;
      request.signal.removeEventListener('abort', teardown);
      // Closing the server aborts the handlers still running: their calls are cancelled upstream.
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    };
    try {
      await server.connect(transport);
      request.signal.addEventListener('abort', teardown, { once: true });
      const response = await transport.handleRequest(request, { parsedBody, authInfo });
      if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        teardown();
        return response;
      }
      return new Response(untilClosed(response.body, teardown).stream, { status: response.status, headers: response.headers });
    } catch (error) {
      teardown();
      this.logger.warn({ msg: `2025-era request failed: ${error instanceof Error ? error.message : String(error)}`, requestId: exchange.requestId });
      return jsonRpcError(500, -32603, 'Internal error', idOf(parsedBody));
    }
  }
}

type SessionNotification = { method: string; params: Record<string, unknown> };

/** A notification another process relayed for a session (see notifySession); undefined for anything else. */
function relayedOf(body: string): { principalId: string; notification: SessionNotification } | undefined {
  try {
    const relayed: unknown = JSON.parse(body);
    if (!isRecord(relayed) || typeof relayed.principalId !== 'string' || !isRecord(relayed.notification)) return undefined;
    const { method, params } = relayed.notification;
    if (typeof method !== 'string' || !isRecord(params)) return undefined;
    return { principalId: relayed.principalId, notification: { method, params } };
  } catch {
    return undefined;
  }
}

/** A result as the era's wire carries it: 2026-07-28 results say what they are and who answered. */
function encodeResult(era: ServedEra, result: Record<string, unknown>): Record<string, unknown> {
  if (era === 'legacy') return result;
  const meta = isRecord(result._meta) ? result._meta : {};
  return {
    ...result,
    resultType: result.resultType ?? 'complete',
    _meta: meta[SERVER_INFO_META_KEY] === undefined ? { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO } : meta,
  };
}

function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

const GROUP_SURFACE = 'group:';

export function surfaceKey(surface: McpSurface): string {
  if (surface.kind === 'group') return `${GROUP_SURFACE}${surface.group}`;
  return surface.kind === 'source' ? `source:${surface.source}` : surface.kind;
}

function exchangeFor(authInfo: AuthInfo | undefined): McpExchange {
  const exchange = exchangeOf(authInfo);
  if (!exchange) throw new Error('an MCP request reached the server without an authenticated exchange');
  return exchange;
}

/** A `notifications/cancelled` naming a request id, whichever era sent it. */
function cancellationOf(body: unknown): { requestId: string | number; reason?: string } | undefined {
  if (!isRecord(body) || body.method !== 'notifications/cancelled' || 'id' in body || !isRecord(body.params)) return undefined;
  const { requestId, reason } = body.params;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
  return { requestId, ...(typeof reason === 'string' ? { reason } : {}) };
}

/**
 * Whether the answer to a message may need notifications ahead of it, which only an SSE stream
 * carries: a request asking for progress, or a tool call (its upstream may log while it runs).
 */
function mayNotify(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      isRecord(message) && (message.method === 'tools/call' || (isRecord(message.params) && isRecord(message.params._meta) && message.params._meta.progressToken !== undefined)),
  );
}

/** Whether a 2026-07-28 answer (JSON, or SSE once progress flows) is acceptable; no Accept header accepts anything. */
function acceptsAnAnswer(accept: string | null): boolean {
  if (accept === null) return true;
  return accept.split(',').some((range) => {
    const type = range.split(';')[0]!.trim().toLowerCase();
    return type === 'application/json' || type === 'text/event-stream' || type === '*/*' || type === 'application/*' || type === 'text/*';
  });
}

function idOf(body: unknown): string | number | null {
  return isRecord(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
}

export function jsonRpcError(status: number, code: number, message: string, id: string | number | null, headers: Record<string, string> = {}, data?: unknown): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message, ...(data !== undefined ? { data } : {}) }, id }, { status, headers });
}

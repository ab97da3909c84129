import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  type AuthInfo,
  type McpHttpHandler,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { McpCatalog } from './mcp-catalog.js';
import { McpToolServers, type McpExchange, type McpSurface } from './mcp-tool-servers.js';

const EXCHANGE = 'toolplane.exchange';
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
 *   stream when the request asks for progress, the only way to deliver it.
 *
 * A `notifications/cancelled` (2025-era clients send it as a separate POST) aborts the call it
 * names; a closed request stream aborts its own call. Either reaches ExecuteTool's AbortSignal.
 */
@Injectable()
export class McpGatewayServer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('mcp-server');
  private readonly modern: Record<McpSurface['kind'], McpHttpHandler>;
  private readonly stopListening: () => void;

  constructor(
    @Inject(McpToolServers) private readonly servers: McpToolServers,
    @Inject(McpCatalog) catalog: McpCatalog,
  ) {
    const handler = () =>
      createMcpHandler((ctx: McpRequestContext) => this.servers.create(exchangeOf(ctx.authInfo), 'modern'), {
        legacy: 'reject',
        responseMode: 'auto',
        onerror: (error) => this.logger.debug(error.message),
      });
    this.modern = { all: handler(), source: handler(), gateway: handler() };
    // 2026-07-28 subscribers (subscriptions/listen) hear when the catalog they list has changed.
    this.stopListening = catalog.onToolsChanged(() => {
      this.modern.all.notify.toolsChanged();
      this.modern.source.notify.toolsChanged();
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
    if (method !== 'POST') {
      // No sessions, hence no standalone GET stream and nothing to DELETE.
      return jsonRpcError(405, -32000, 'Method not allowed: this endpoint is stateless; send JSON-RPC messages with POST.', null, { Allow: 'POST' });
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
    if (await isLegacyRequest(request, parsedBody)) return this.serveLegacy(request, parsedBody, exchange, authInfo);
    if (!acceptsAnAnswer(request.headers.get('accept'))) {
      return jsonRpcError(406, -32000, 'Not Acceptable: accept application/json and text/event-stream', idOf(parsedBody));
    }
    return modern.fetch(request, { authInfo, parsedBody });
  }

  beforeApplicationShutdown(): Promise<void> {
    // Ends open subscriptions/listen streams, so that the HTTP server can close.
    this.stopListening();
    return Promise.all(Object.values(this.modern).map((handler) => handler.close())).then(() => undefined);
  }

  /** A 2025-era message, served statelessly (the SDK's stateless idiom, JSON unless progress must stream). */
  private async serveLegacy(request: Request, parsedBody: unknown, exchange: McpExchange, authInfo: AuthInfo): Promise<Response> {
    const server = this.servers.create(exchange, 'legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(parsedBody) });
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
      return new Response(untilDone(response.body, teardown), { status: response.status, headers: response.headers });
    } catch (error) {
      teardown();
      this.logger.warn(`2025-era request failed: ${error instanceof Error ? error.message : String(error)}`);
      return jsonRpcError(500, -32603, 'Internal error', idOf(parsedBody));
    }
  }
}

function authInfoOf(exchange: McpExchange): AuthInfo {
  // Toolplane authenticates before the SDK sees the request; the key itself is never handed on.
  return { token: '', clientId: exchange.principal.id, scopes: [...exchange.principal.roles], extra: { [EXCHANGE]: exchange } };
}

function exchangeOf(authInfo: AuthInfo | undefined): McpExchange {
  const exchange = authInfo?.extra?.[EXCHANGE] as McpExchange | undefined;
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

/** Whether any request in the message asks for progress notifications. */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => isRecord(message) && isRecord(message.params) && isRecord(message.params._meta) && message.params._meta.progressToken !== undefined);
}

/** Whether a 2026-07-28 answer (JSON, or SSE once progress flows) is acceptable; no Accept header accepts anything. */
function acceptsAnAnswer(accept: string | null): boolean {
  if (accept === null) return true;
  return accept.split(',').some((range) => {
    const type = range.split(';')[0]!.trim().toLowerCase();
    return type === 'application/json' || type === 'text/event-stream' || type === '*/*' || type === 'application/*' || type === 'text/*';
  });
}

/** The stream, calling `done` once it ends, fails or is cancelled (the caller went away). */
function untilDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          done();
          controller.close();
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason).catch(() => undefined);
    },
  });
}

function idOf(body: unknown): string | number | null {
  return isRecord(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
}

export function jsonRpcError(status: number, code: number, message: string, id: string | number | null, headers: Record<string, string> = {}, data?: unknown): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message, ...(data !== undefined ? { data } : {}) }, id }, { status, headers });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

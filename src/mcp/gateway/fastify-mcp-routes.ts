import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { CanActivate } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { hostHeaderValidationResponse, isJsonContentType, localhostAllowedHostnames } from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { Principal } from '../../modules/access/domain/principal.js';
import { DomainError } from '../../shared/domain-error.js';
import { jsonRpcError, McpGatewayServer } from './mcp-gateway-server.js';
import { LazyAnswerStream } from './lazy-answer-stream.js';
import { McpCatalog } from './mcp-catalog.js';
import type { McpExchange, McpSurface } from './mcp-tool-servers.js';
import { recognizeStatelessToolCall, type StatelessToolCall } from './stateless-tool-call.js';

export interface McpRoutesOptions {
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The REST API's guard: MCP endpoints authenticate exactly as the REST API does. */
  guard: CanActivate;
}

/** The headers the MCP layer reads, besides every `Mcp-*` one; the rest (credentials included) stay behind. */
const FORWARDED_HEADERS = new Set(['content-type', 'accept', 'last-event-id']);

type McpRequest = FastifyRequest & { principal?: Principal };

/**
 * Mounts `/mcp`, `/mcp/sources/:name` and `/mcp/gateway` on Fastify, in an encapsulated scope of
 * their own so that MCP owns its framing: bodies are taken as raw bytes (a malformed body gets a
 * JSON-RPC parse error, not a REST error), and every error — authentication included — is answered
 * as a JSON-RPC error object. Authentication runs before the body is read.
 */
export async function registerMcpRoutes(app: NestFastifyApplication, options: McpRoutesOptions): Promise<void> {
  const gateway = app.get(McpGatewayServer);
  const catalog = app.get(McpCatalog);
  const config = app.get<AppConfig>(APP_CONFIG);
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();

  await fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      const message = status === 413 ? `Request body too large: at most ${options.bodyLimit} bytes` : status >= 500 ? 'Internal error' : error.message;
      return sendResponse(reply, jsonRpcError(status, status >= 500 ? -32603 : -32000, message, null));
    });

    scope.addHook('onRequest', async (request: McpRequest, reply) => {
      const refused = await authenticate(options.guard, request, reply);
      if (refused) return sendResponse(reply, refused);
      const foreign = originRefusal(request, config);
      if (foreign) return sendResponse(reply, foreign);
    });

    const serve = async (request: McpRequest, reply: FastifyReply, surface: McpSurface) => {
      const principal = request.principal!;
      if (surface.kind === 'source' && !(await catalog.snapshot()).sources.has(surface.source)) {
        return sendResponse(reply, jsonRpcError(404, -32001, `No source named "${surface.source.slice(0, 100)}"`, null));
      }
      const exchange: McpExchange = {
        principal,
        surface,
        userAgent: header(request, 'user-agent'),
        correlationId: header(request, 'x-correlation-id'),
        protocolVersionHeader: header(request, 'mcp-protocol-version'),
      };
      const parsedBody = parseBody(request);
      const call = surface.kind !== 'gateway' && gateway.accepting ? statelessCallOf(request, parsedBody) : undefined;
      if (call) return serveStatelessCall(gateway, call, exchange, reply);
      const response = await gateway.handle(toWebRequest(request, reply, parsedBody), parsedBody, exchange);
      return sendResponse(reply, response);
    };

    scope.all('/mcp', (request, reply) => serve(request, reply, { kind: 'all' }));
    scope.all('/mcp/gateway', (request, reply) => serve(request, reply, { kind: 'gateway' }));
    scope.all<{ Params: { name: string } }>('/mcp/sources/:name', (request, reply) => serve(request, reply, { kind: 'source', source: request.params.name }));
  });
}

/** Runs the REST guard on the request; answers the JSON-RPC refusal, or undefined with `request.principal` set. */
async function authenticate(guard: CanActivate, request: McpRequest, reply: FastifyReply): Promise<Response | undefined> {
  try {
    const allowed = await guard.canActivate(new ExecutionContextHost([request, reply], McpEndpoints, registerMcpRoutes));
    if (allowed === true && request.principal) return undefined;
    return jsonRpcError(403, -32001, 'Forbidden', null);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'unauthenticated') {
      return jsonRpcError(401, -32001, `Unauthorized: ${error.message}`, null, { 'WWW-Authenticate': 'Bearer realm="toolplane"' }, { code: error.code });
    }
    if (error instanceof DomainError && error.kind === 'forbidden') return jsonRpcError(403, -32001, `Forbidden: ${error.message}`, null, {}, { code: error.code });
    throw error;
  }
}

/**
 * DNS-rebinding protection: a browser `Origin` must name the host it talks to, and with
 * authentication off (loopback only) the `Host` must be a loopback name as well.
 */
function originRefusal(request: FastifyRequest, config: AppConfig): Response | undefined {
  const host = header(request, 'host');
  if (config.authDisabled) {
    const refused = hostHeaderValidationResponse(new Request('http://localhost/', { headers: host ? { host } : {} }), localhostAllowedHostnames());
    if (refused) return refused;
  }
  const origin = header(request, 'origin');
  if (origin === undefined) return undefined;
  const originHost = hostnameOf(origin);
  if (originHost !== undefined && host !== undefined && originHost === hostnameOf(`http://${host}`)) return undefined;
  return jsonRpcError(403, -32000, `Forbidden: Origin ${origin.slice(0, 100)} does not match the host it was sent to`, null);
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The body as JSON, or undefined when there is none or it does not parse (the SDK answers the parse error from the bytes). */
function parseBody(request: FastifyRequest): unknown {
  const body = bodyOf(request);
  if (!body) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function bodyOf(request: FastifyRequest): Buffer | undefined {
  return Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
}

/** A plain stateless tools/call, which is served without the web-standard round trip and SDK server. */
function statelessCallOf(request: FastifyRequest, parsedBody: unknown): StatelessToolCall | undefined {
  if (request.method !== 'POST' || parsedBody === undefined || !isJsonContentType(header(request, 'content-type') ?? null)) return undefined;
  return recognizeStatelessToolCall(parsedBody, (name) => header(request, name), Object.keys(request.headers));
}

/** Answers the call on the raw response, JSON or SSE as it goes (see LazyAnswerStream). */
async function serveStatelessCall(gateway: McpGatewayServer, call: StatelessToolCall, exchange: McpExchange, reply: FastifyReply): Promise<void> {
  void reply.hijack();
  const stream = new LazyAnswerStream(reply.raw);
  const gone = abortedOnClose(reply);
  try {
    await gateway.serveStatelessCall(call, exchange, gone, stream);
  } finally {
    // Whatever went wrong, the exchange ends.
    if (!stream.closed) stream.answer({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'Internal error' } }, 500);
  }
}

/** A signal that aborts when the client goes away before the answer is complete. */
function abortedOnClose(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** The Fastify request as a web-standard Request, aborted when the client goes away before the answer. */
function toWebRequest(request: FastifyRequest, reply: FastifyReply, parsedBody: unknown): Request {
  const headers = new Headers();
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (FORWARDED_HEADERS.has(name) || name.startsWith('mcp-')) headers.append(name, raw[i + 1]!);
  }
  const body = bodyOf(request);
  const method = request.method;
  return new Request(`http://${header(request, 'host') ?? 'localhost'}${request.url}`, {
    method,
    headers,
    // A parsed body travels as `parsedBody`; only bytes that did not parse are handed on as they came.
    ...(body && parsedBody === undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    signal: abortedOnClose(reply),
  });
}

async function sendResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') void reply.header(name, value);
  });
  if (!response.body) return reply.send();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    // Streamed as it comes; a client going away destroys the stream, which cancels the exchange.
    return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
  }
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Names the MCP endpoints to the guard (it reads route metadata from the class and handler it is given). */
class McpEndpoints {}

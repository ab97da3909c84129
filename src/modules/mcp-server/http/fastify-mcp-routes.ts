import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { CanActivate } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../../shared/principal/principal.js';
import { Requires } from '../../../shared/http/route-access.js';
import { MCP_SCOPE } from '../../access/interface/protected-resource.controller.js';
import { DomainError } from '../../../shared/domain-error.js';
import { clientOf } from '../../../shared/http/client-of.js';
import { parseJsonBody } from '../../../shared/http/json-body.js';
import { heavySteps, isHeavyText } from '../../../shared/heavy-steps.js';
import { isRecord } from '../../../shared/is-record.js';
import { isEventStream } from '../../../upstream/http/large-message-rework.js';
import { EXECUTION_ID_HEADER } from '../calls/call-result.js';
import { jsonRpcError, McpGatewayServer, surfaceKey } from '../mcp-gateway-server.js';
import { LazyAnswerStream } from './lazy-answer-stream.js';
import { CALL_TOOL } from '../mcp-tool-servers.js';
import { type McpExchange, type McpSurface } from '../mcp-exchange.js';
import { recognizeStatelessToolCall, type StatelessToolCall } from '../calls/stateless-tool-call.js';
import { SEALED_SESSION_PREFIX } from '../sessions/sealed-session.js';
import { SourceGate } from '../source-gate.js';
import { GroupViews } from '../../catalog/application/group-views.js';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import { onClientGone } from '../../../shared/http/client-gone.js';
import { Telemetry, type ServerOperation } from '../../../shared/telemetry.js';
import { firstHeaderValue } from '../../../shared/http/header-value.js';
import { timeOrderedId } from '../../../shared/time-ordered-id.js';
import { McpTaskRequests } from '../tasks/mcp-task-requests.js';
import { readInputAnswer } from '../tasks/legacy-input-relay.js';
import { TaskSubscriptions } from '../tasks/task-subscriptions.js';

export interface McpRoutesOptions {
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The REST API's guard: MCP endpoints authenticate exactly as the REST API does. */
  guard: CanActivate;
  /**
   * With an OAuth issuer configured: Toolplane's resource URI, under which each endpoint's
   * Protected Resource Metadata is published; 401 and 403 answers point to it (MCP authorization).
   */
  resourceUri?: string;
}

/** The headers the MCP layer reads, besides every `Mcp-*` one; the rest (credentials included) stay behind. */
const FORWARDED_HEADERS = new Set(['content-type', 'accept', 'last-event-id']);

type McpRequest = FastifyRequest & { principal?: Principal };

/**
 * Mounts `/mcp`, `/mcp/sources/:name`, `/mcp/groups/:name` and `/mcp/gateway` on Fastify, in an encapsulated scope of
 * their own so that MCP owns its framing: bodies are taken as raw bytes (a malformed body gets a
 * JSON-RPC parse error, not a REST error), and every error — authentication included — is answered
 * as a JSON-RPC error object. Authentication runs before the body is read.
 */
export async function registerMcpRoutes(app: NestFastifyApplication, options: McpRoutesOptions): Promise<void> {
  const gateway = app.get(McpGatewayServer);
  const sourceGate = app.get(SourceGate);
  const groups = app.get(GroupViews);
  const telemetry = app.get(Telemetry);
  const taskRequests = app.get(McpTaskRequests);
  const taskSubscriptions = app.get(TaskSubscriptions);
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();

  await fastify.register(async (scope) => {
    // JSON only, as on the REST API: a form or text body answers 415 unread. Bytes, so that a
    // malformed body gets the SDK's JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      return sendResponse(reply, frameworkError(status, error.message, options.bodyLimit));
    });

    // Host and Origin were checked before this hook, for every route (see installRequestEdge).
    scope.addHook('onRequest', async (request: McpRequest, reply) => {
      const refused = await authenticate(options.guard, request, reply, options.resourceUri);
      if (refused) return sendResponse(reply, refused);
    });

    const serve = async (request: McpRequest, reply: FastifyReply, surface: McpSurface) => {
      const principal = request.principal!;
      const exchange: McpExchange = {
        principal,
        surface,
        requestId: request.id,
        userAgent: header(request, 'user-agent'),
        correlationId: header(request, 'x-correlation-id'),
        protocolVersionHeader: header(request, 'mcp-protocol-version'),
      };
      if (surface.kind === 'source') {
        // Before anything else: a source that does not exist, or that the caller may not use, answers alike.
        const closed = await sourceGate.pass(exchange, { httpMethod: request.method, body: async () => bodyValue(await parseBody(request)), clientAddress: clientOf(request).address });
        if (closed) return sendResponse(reply, closed);
      }
      // A group that does not exist answers every request alike, before anything is served.
      if (surface.kind === 'group' && !(await groups.view(surface.group).catch(() => undefined))) return sendResponse(reply, unknownGroup(surface.group));
      const sessionId = header(request, 'mcp-session-id');
      if (sessionId?.startsWith(SEALED_SESSION_PREFIX)) {
        const claims = gateway.sealedSessions.read(sessionId, principal.id);
        // Tampered, issued under another key or to another caller: no such session.
        if (!claims) return sendResponse(reply, jsonRpcError(404, -32001, 'Session not found: initialize again.', null));
        // Another endpoint's session is just an id here: the request is served statelessly, as any other.
        if (claims.surface === surfaceKey(surface)) {
          exchange.session = claims;
          exchange.sessionId = sessionId;
        }
      }
      const parsed = await parseBody(request);
      if ('refusal' in parsed) return sendResponse(reply, parsed.refusal);
      const parsedBody = parsed.value;
      // One JSON-RPC request or notification: its SERVER span (traces on) and duration, until the exchange closes.
      const operation = request.method === 'POST' && isRecord(parsedBody) && typeof parsedBody.method === 'string' ? telemetry.serverOperation(parsedBody, request.headers, clientOf(request)) : undefined;
      if (!operation) return dispatch(request, reply, surface, exchange, parsedBody, sessionId, undefined);
      reply.raw.once('close', () => operation.end());
      return operation.run(() => dispatch(request, reply, surface, exchange, parsedBody, sessionId, operation));
    };

    const dispatch = async (
      request: McpRequest,
      reply: FastifyReply,
      surface: McpSurface,
      exchange: McpExchange,
      parsedBody: unknown,
      sessionId: string | undefined,
      operation: ServerOperation | undefined,
    ) => {
      // Tasks' own requests, which the SDK's server does not serve (see McpTaskRequests).
      if (request.method === 'POST' && gateway.accepting && McpTaskRequests.concerns(parsedBody) && isJsonContentType(header(request, 'content-type') ?? null)) {
        const gone = new AbortController();
        onClientGone(reply.raw, () => gone.abort());
        const headers = { protocolVersion: header(request, 'mcp-protocol-version'), mcpMethod: header(request, 'mcp-method'), mcpName: header(request, 'mcp-name') };
        const answer = await taskRequests.answer(parsedBody as Record<string, unknown>, exchange, headers, gone.signal);
        if (answer.stream) return sendResponse(reply, new Response(answer.stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } }), operation);
        return sendResponse(reply, Response.json(answer.body, { status: answer.status }), operation);
      }
      // A caller's answer to a request for input a 2025-11-25 tasks/result put to it.
      const inputAnswer = request.method === 'POST' && gateway.accepting ? readInputAnswer(parsedBody) : undefined;
      if (inputAnswer) {
        await taskRequests.takeInputAnswer(inputAnswer, exchange);
        return sendResponse(reply, new Response(null, { status: 202 }), operation);
      }
      // A listen asking for task notifications: the SDK serves the rest of it (see TaskSubscriptions).
      if (request.method === 'POST' && gateway.accepting && TaskSubscriptions.concerns(parsedBody) && isJsonContentType(header(request, 'content-type') ?? null)) {
        const gone = new AbortController();
        onClientGone(reply.raw, () => gone.abort());
        const headers = { protocolVersion: header(request, 'mcp-protocol-version'), mcpMethod: header(request, 'mcp-method'), mcpName: header(request, 'mcp-name') };
        const response = await taskSubscriptions.serve(parsedBody as Record<string, unknown>, exchange, headers, gone.signal, (body) => gateway.handle(toWebRequest(request, reply, body), body, exchange));
        return sendResponse(reply, response, operation);
      }
      // A call on its own exchange (no session held in this process) is recorded under an id chosen now, which the answer's headers name.
      if (isToolCall(parsedBody, surface) && (sessionId === undefined || sessionId.startsWith(SEALED_SESSION_PREFIX))) exchange.executionId = timeOrderedId();
      const call = surface.kind !== 'gateway' && gateway.accepting ? statelessCallOf(request, parsedBody) : undefined;
      if (call) {
        if (exchange.executionId) reply.raw.setHeader(EXECUTION_ID_HEADER, exchange.executionId);
        return serveStatelessCall(gateway, call, exchange, reply, operation);
      }
      const response = await gateway.handle(toWebRequest(request, reply, parsedBody), parsedBody, exchange);
      // Named once an execution took the id, or while the answer still streams (the call is under way).
      if (exchange.executionId && (exchange.executionIdTaken || isEventStream(response))) void reply.header(EXECUTION_ID_HEADER, exchange.executionId);
      return sendResponse(reply, response, operation);
    };

    scope.all('/mcp', (request, reply) => serve(request, reply, { kind: 'all' }));
    scope.all('/mcp/gateway', (request, reply) => serve(request, reply, { kind: 'gateway' }));
    scope.all<{ Params: { name: string } }>('/mcp/sources/:name', (request, reply) => serve(request, reply, { kind: 'source', source: request.params.name }));
    scope.all<{ Params: { name: string } }>('/mcp/groups/:name', (request, reply) => serve(request, reply, { kind: 'group', group: request.params.name }));
  });
}

/** What a group that does not exist answers, whatever was asked. */
function unknownGroup(name: string): Response {
  return jsonRpcError(404, -32001, `No group named "${name.slice(0, 100)}"`, null, {}, { code: 'GROUP_NOT_FOUND' });
}

/** A failure of the framework (body type, size) as a JSON-RPC error with the REST API's stable code. */
function frameworkError(status: number, message: string, bodyLimit: number): Response {
  if (status === 413) return jsonRpcError(413, -32000, `Request body too large: at most ${bodyLimit} bytes`, null, {}, { code: 'PAYLOAD_TOO_LARGE' });
  if (status === 415) return jsonRpcError(415, -32000, 'Unsupported Media Type: send the body as application/json', null, {}, { code: 'UNSUPPORTED_MEDIA_TYPE' });
  if (status >= 500) return jsonRpcError(status, -32603, 'Internal error', null);
  return jsonRpcError(status, -32000, message, null);
}

/** Runs the REST guard on the request; answers the JSON-RPC refusal, or undefined with `request.principal` set. */
async function authenticate(guard: CanActivate, request: McpRequest, reply: FastifyReply, resourceUri: string | undefined): Promise<Response | undefined> {
  // RFC 9728 / MCP authorization: where to learn how to get a token for this very endpoint.
  const metadata = resourceUri ? `resource_metadata="${resourceUri}/.well-known/oauth-protected-resource${request.url.split('?')[0]}", ` : '';
  const challenge = (extra = '') => (resourceUri ? `Bearer ${extra}${metadata}scope="${MCP_SCOPE}"` : `Bearer ${extra}realm="toolplane"`);
  try {
    const allowed = await guard.canActivate(new ExecutionContextHost([request, reply], McpEndpoints, registerMcpRoutes));
    if (allowed === true && request.principal) return undefined;
    return jsonRpcError(403, -32001, 'Forbidden', null);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'unauthenticated') {
      return jsonRpcError(401, -32001, `Unauthorized: ${error.message}`, null, { 'WWW-Authenticate': challenge() }, { code: error.code });
    }
    if (error instanceof DomainError && error.kind === 'forbidden') {
      return jsonRpcError(403, -32001, `Forbidden: ${error.message}`, null, { 'WWW-Authenticate': challenge('error="insufficient_scope", ') }, { code: error.code });
    }
    if (error instanceof DomainError && error.kind === 'rate_limited') {
      return jsonRpcError(429, -32000, error.message, null, error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : {}, { code: error.code });
    }
    throw error;
  }
}

/**
 * The body as JSON, parsed as the REST API parses it (nesting bounded, prototype keys refused):
 * undefined when there is none or it does not parse (the SDK answers the parse error from the
 * bytes), a JSON-RPC refusal when it nests too deep or holds a prototype key.
 */
async function parseBody(request: FastifyRequest): Promise<{ value: unknown } | { refusal: Response }> {
  const body = bodyOf(request);
  if (!body) return { value: undefined };
  const text = body.toString('utf8');
  if (isHeavyText(text)) await heavySteps.turn();
  const parsed = parseJsonBody(text);
  if (parsed.ok) return { value: parsed.value };
  if (parsed.code === 'INVALID_JSON') return { value: undefined };
  return { refusal: jsonRpcError(400, -32600, `Invalid Request: ${parsed.message}`, null, {}, { code: parsed.code, details: parsed.details }) };
}

function bodyValue(parsed: { value: unknown } | { refusal: Response }): unknown {
  return 'value' in parsed ? parsed.value : undefined;
}

function bodyOf(request: FastifyRequest): Buffer | undefined {
  return Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
}

/** A `tools/call` request that runs a tool: any on the catalog and source endpoints, `call_tool` on the gateway. */
function isToolCall(body: unknown, surface: McpSurface): boolean {
  if (!isRecord(body) || body.method !== 'tools/call' || body.id === undefined || body.id === null) return false;
  return surface.kind !== 'gateway' || (isRecord(body.params) && body.params.name === CALL_TOOL);
}

/** A plain stateless tools/call, which is served without the web-standard round trip and SDK server. */
function statelessCallOf(request: FastifyRequest, parsedBody: unknown): StatelessToolCall | undefined {
  if (request.method !== 'POST' || parsedBody === undefined || !isJsonContentType(header(request, 'content-type') ?? null)) return undefined;
  return recognizeStatelessToolCall(parsedBody, (name) => header(request, name), Object.keys(request.headers));
}

/** Answers the call on the raw response, JSON or SSE as it goes (see LazyAnswerStream). */
async function serveStatelessCall(gateway: McpGatewayServer, call: StatelessToolCall, exchange: McpExchange, reply: FastifyReply, operation: ServerOperation | undefined): Promise<void> {
  void reply.hijack();
  const stream = new LazyAnswerStream(reply.raw, operation && ((message) => operation.answered(message)));
  // The client going away before the answer cancels the call.
  const gone = new CallerDeparture();
  onClientGone(reply.raw, () => gone.abort());
  try {
    await gateway.serveStatelessCall(call, exchange, gone, stream);
  } finally {
    // Whatever went wrong, the exchange ends.
    if (!stream.closed) stream.answer({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'Internal error' } }, 500);
  }
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
  const gone = new AbortController();
  onClientGone(reply.raw, () => gone.abort());
  return new Request(`http://${header(request, 'host') ?? 'localhost'}${request.url}`, {
    method,
    headers,
    // A parsed body travels as `parsedBody`; only bytes that did not parse are handed on as they came.
    ...(body && parsedBody === undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    signal: gone.signal,
  });
}

async function sendResponse(reply: FastifyReply, response: Response, operation?: ServerOperation): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') void reply.header(name, value);
  });
  if (!response.body) return reply.send();
  if (isEventStream(response)) {
    // The headers go out at once, not with the first event: a standalone stream may stay silent
    // for long (the SDK's first keep-alive comes after 15 s), and a client counts it open only
    // once they arrive. Then streamed as it comes; a client going away destroys the stream, which
    // cancels the exchange.
    void reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.writeHead(response.status);
    reply.raw.flushHeaders();
    pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), reply.raw, () => undefined);
    return reply;
  }
  const body = Buffer.from(await response.arrayBuffer());
  operation?.answeredBody(body);
  return reply.send(body);
}

function header(request: FastifyRequest, name: string): string | undefined {
  return firstHeaderValue(request.headers[name]);
}

/** Names the MCP endpoints to the guard (it reads route metadata from the class and handler it is given). */
@Requires('mcp:use')
class McpEndpoints {}

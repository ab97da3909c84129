import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import type { WorkMetrics } from '../../shared/work-metrics.js';
import { isRecord } from '../../shared/is-record.js';
import { spanContextOf, traceCarriers } from './trace-carrier.js';
import { firstHeaderValue } from '../../shared/http/header-value.js';
import { NO_TELEMETRY, Telemetry, type ClientOperation, type HttpOperation, type InterceptorOperation, type InterceptorRunInfo, type ServerOperation, type UpstreamEndpoint } from '../../shared/telemetry.js';
import { MCP_METHODS } from '../../shared/mcp-methods.js';

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
/** The methods of the MCP specification: metric labels and span names name only these (anything else is `_OTHER`). */
const KNOWN_METHODS: ReadonlySet<string> = new Set(MCP_METHODS);
/** JSON-RPC and MCP error codes kept as metric labels; other codes an upstream or caller chose are `_OTHER`. */
const KNOWN_ERROR_CODES = new Set(['-32700', '-32600', '-32601', '-32602', '-32603', '-32000', '-32001', '-32002', '-32020', '-32021', '-32042']);
/** The largest payload attribute (arguments, result) recorded, in characters. */
const MAX_PAYLOAD_CHARS = 16 * 1024;
/** A tool result larger than this is not read for its outcome (the span and metric then name none). */
const MAX_INSPECTED_BODY_BYTES = 256 * 1024;
/** Answers up to this size are always read for their outcome. */
const SMALL_BODY_BYTES = 4 * 1024;

type Headers = Record<string, string | string[] | undefined>;

/**
 * Spans and duration metrics of MCP work, after the OpenTelemetry semantic conventions for MCP: a
 * SERVER span per MCP request Toolplane serves, a CLIENT span per request it sends upstream, an
 * HTTP SERVER span per REST invocation. With traces off, spans are never started (no attributes are
 * built); the metrics are always kept.
 */
export class McpTelemetry extends Telemetry {
  constructor(
    /** Absent: spans only (tools that run the executor outside the application). */
    private readonly metrics: WorkMetrics | undefined,
    /** Whether client spans carry the tool's arguments and result (scrubbed), TOOLPLANE_TRACE_PAYLOADS. */
    readonly payloads: boolean,
  ) {
    super();
  }

  /**
   * One JSON-RPC request (or notification) on an MCP endpoint. The parent is the trace context in
   * `params._meta` when there is one (the HTTP request's own, when different, is linked), else the
   * one in the HTTP headers.
   */
  serverOperation(message: Record<string, unknown>, headers: Headers, client: { address?: string; port?: number }): McpServerOperation {
    const method = typeof message.method === 'string' ? message.method : '';
    const known = KNOWN_METHODS.has(method) ? method : '_OTHER';
    if (!traceCarriers.enabled) return new McpServerOperation(this.metrics, known, undefined, undefined);

    const params = isRecord(message.params) ? message.params : {};
    const meta = isRecord(params._meta) ? params._meta : undefined;
    const fromHeaders = traceCarriers.extract(headers);
    const fromMeta = meta && traceCarriers.carries(meta) ? traceCarriers.extract(meta) : undefined;
    const parent = fromMeta ?? fromHeaders ?? context.active();
    const links: Link[] = [];
    const headerSpan = spanContextOf(fromHeaders);
    if (fromMeta && headerSpan && headerSpan.spanId !== spanContextOf(fromMeta)?.spanId) links.push({ context: headerSpan });

    const target = targetOf(method, params);
    const name = known === '_OTHER' ? '_OTHER' : target !== undefined && (method === 'tools/call' || method === 'prompts/get') ? `${method} ${target}` : method;
    // The required attribute at start (samplers may read it), the rest only on a span that records.
    const span = trace.getTracer('toolplane').startSpan(name, { kind: SpanKind.SERVER, attributes: { 'mcp.method.name': method.slice(0, 100) }, links }, parent);
    const ctx = trace.setSpan(parent, span);
    if (!span.isRecording()) return new McpServerOperation(this.metrics, known, span, ctx);

    const modern = meta !== undefined && typeof meta[PROTOCOL_VERSION_META_KEY] === 'string';
    const attributes: Attributes = {
      'jsonrpc.protocol.version': typeof message.jsonrpc === 'string' ? message.jsonrpc.slice(0, 10) : '2.0',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    };
    const id = message.id;
    if (typeof id === 'string' || typeof id === 'number') attributes['jsonrpc.request.id'] = String(id).slice(0, 100);
    if (method === 'tools/call' && target !== undefined) {
      attributes['gen_ai.tool.name'] = target;
      attributes['gen_ai.operation.name'] = 'execute_tool';
    } else if (method === 'prompts/get' && target !== undefined) attributes['gen_ai.prompt.name'] = target;
    else if (typeof params.uri === 'string' && method.startsWith('resources/')) attributes['mcp.resource.uri'] = params.uri.slice(0, 500);
    const version = modern ? meta[PROTOCOL_VERSION_META_KEY] : method === 'initialize' ? params.protocolVersion : firstHeaderValue(headers['mcp-protocol-version']);
    if (typeof version === 'string') attributes['mcp.protocol.version'] = version.slice(0, 40);
    const sessionId = firstHeaderValue(headers['mcp-session-id']);
    if (sessionId !== undefined && !modern) attributes['mcp.session.id'] = sessionId.slice(0, 200);
    if (client.address) attributes['client.address'] = client.address;
    if (client.port) attributes['client.port'] = client.port;
    span.setAttributes(attributes);
    return new McpServerOperation(this.metrics, known, span, ctx);
  }

  /** One `tools/call` sent to an upstream (one attempt), child of the active span. */
  upstreamCall(endpoint: UpstreamEndpoint, toolName: string): McpClientOperation {
    return this.upstreamRequest(endpoint, 'tools/call', toolName);
  }

  /** One `tools/list` page asked of an upstream (discovery, refresh), child of the active span if any. */
  upstreamListing(endpoint: UpstreamEndpoint): McpClientOperation {
    return this.upstreamRequest(endpoint, 'tools/list');
  }

  private upstreamRequest(endpoint: UpstreamEndpoint, method: 'tools/call' | 'tools/list', toolName?: string): McpClientOperation {
    const transport = endpoint.transport === 'stdio' ? 'pipe' : 'tcp';
    if (!traceCarriers.enabled) return new McpClientOperation(this.metrics, transport, undefined, undefined, method);
    const parent = context.active();
    const span = trace.getTracer('toolplane').startSpan(toolName === undefined ? method : `${method} ${toolName}`, { kind: SpanKind.CLIENT, attributes: { 'mcp.method.name': method } }, parent);
    const ctx = trace.setSpan(parent, span);
    if (!span.isRecording()) return new McpClientOperation(this.metrics, transport, span, ctx, method);
    const attributes: Attributes = {
      ...(toolName !== undefined ? { 'gen_ai.tool.name': toolName, 'gen_ai.operation.name': 'execute_tool' } : {}),
      'jsonrpc.protocol.version': '2.0',
      'network.transport': transport,
    };
    if (endpoint.url) {
      const url = safeUrl(endpoint.url);
      if (url) {
        attributes['server.address'] = url.hostname.replace(/^\[|\]$/g, '');
        attributes['server.port'] = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
        attributes['network.protocol.name'] = 'http';
      }
    }
    span.setAttributes(attributes);
    return new McpClientOperation(this.metrics, transport, span, ctx, method);
  }

  /**
   * A REST request served over HTTP (e.g. `POST /api/v1/tools/{qualifiedName}/invoke`), parented by its
   * `traceparent` header. Without a matched route the span is named by the method alone.
   */
  httpServer(method: string, route: string | undefined, path: string, headers: Headers, client: { address?: string; port?: number }): HttpServerOperation {
    if (!traceCarriers.enabled) return new HttpServerOperation(undefined, undefined);
    const parent = traceCarriers.extract(headers) ?? context.active();
    const name = route === undefined ? method : `${method} ${route}`;
    const routing: Attributes = route === undefined ? { 'http.request.method': method } : { 'http.request.method': method, 'http.route': route };
    const span = trace.getTracer('toolplane').startSpan(name, { kind: SpanKind.SERVER, attributes: routing }, parent);
    if (span.isRecording()) {
      const attributes: Attributes = { 'url.path': path.slice(0, 500), 'url.scheme': 'http', 'network.transport': 'tcp' };
      if (client.address) attributes['client.address'] = client.address;
      if (client.port) attributes['client.port'] = client.port;
      span.setAttributes(attributes);
    }
    return new HttpServerOperation(span, trace.setSpan(parent, span));
  }

  /**
   * One interceptor's run on a call: an INTERNAL span, child of the active one (the call's MCP or
   * HTTP SERVER span). The GenAI semantic conventions have no guardrail span yet (proposed, in
   * development), so it is Toolplane's own: `interceptor {name}` with `toolplane.interceptor.*`.
   */
  interceptorRun(interceptor: InterceptorRunInfo): InterceptorOperation {
    if (!traceCarriers.enabled) return NO_TELEMETRY.interceptorRun(interceptor);
    const parent = context.active();
    const span = trace.getTracer('toolplane').startSpan(
      `interceptor ${interceptor.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: { 'toolplane.interceptor.name': interceptor.name, 'toolplane.interceptor.kind': interceptor.kind, 'toolplane.interceptor.phase': interceptor.phase },
      },
      parent,
    );
    return new InterceptorSpanOperation(span, trace.setSpan(parent, span));
  }
}

/** The INTERNAL span of one interceptor's run. */
export class InterceptorSpanOperation implements InterceptorOperation {
  constructor(
    private readonly span: Span,
    private readonly ctx: Context,
  ) {}

  run<T>(work: () => T): T {
    return context.with(this.ctx, work);
  }

  end(decision: 'allow' | 'modify' | 'deny' | 'error' | 'hold', failure?: string): void {
    this.span.setAttribute('toolplane.interceptor.decision', decision);
    // A denial is the interceptor doing its work, not an error; a failure is.
    if (decision === 'error') {
      this.span.setAttribute('error.type', failure ?? '_OTHER');
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

/** The SERVER span and duration of one MCP request Toolplane serves. */
export class McpServerOperation implements ServerOperation {
  private readonly started = performance.now();
  private errorType: string | undefined;
  private ended = false;

  constructor(
    private readonly metrics: WorkMetrics | undefined,
    private readonly method: string,
    private readonly span: Span | undefined,
    private readonly ctx: Context | undefined,
  ) {}

  /** Runs the work with this span as the active one (upstream spans, logs and records see it). */
  run<T>(work: () => T): T {
    return this.ctx ? context.with(this.ctx, work) : work();
  }

  /** The JSON-RPC answer as sent: its error code, or `tool_error` for a result with `isError`. */
  answered(message: unknown): void {
    if (!isRecord(message)) return;
    if (isRecord(message.error)) {
      const code = String(message.error.code);
      this.errorType = code;
      this.span?.setAttribute('rpc.response.status_code', code);
      this.span?.setStatus({ code: SpanStatusCode.ERROR, message: typeof message.error.message === 'string' ? message.error.message.slice(0, 500) : undefined });
    } else if (isRecord(message.result) && message.result.isError === true) {
      this.errorType = 'tool_error';
      this.span?.setStatus({ code: SpanStatusCode.ERROR });
    }
  }

  /**
   * A JSON answer body, read for its outcome: small ones (errors are), and tool results that may
   * say `isError` — never a large listing, which would cost a parse per request.
   */
  answeredBody(body: Buffer): void {
    const small = body.length <= SMALL_BODY_BYTES;
    if (!small && !(this.method === 'tools/call' && body.length <= MAX_INSPECTED_BODY_BYTES && body.includes('"isError":true'))) return;
    try {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      if (!Array.isArray(parsed)) this.answered(parsed);
    } catch {
      // not JSON: nothing to learn
    }
  }

  /** Ends the span and records the duration; later calls do nothing. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.errorType !== undefined) this.span?.setAttribute('error.type', this.errorType);
    this.span?.end();
    this.metrics?.mcpOperationEnded({ side: 'server', method: this.method, ...errorLabel(this.errorType), transport: 'tcp', seconds: (performance.now() - this.started) / 1000 });
  }
}

/** The CLIENT span and duration of one request Toolplane sends to an upstream. */
export class McpClientOperation implements ClientOperation {
  private readonly started = performance.now();
  private errorType: string | undefined;

  constructor(
    private readonly metrics: WorkMetrics | undefined,
    private readonly transport: 'tcp' | 'pipe',
    private readonly span: Span | undefined,
    private readonly ctx: Context | undefined,
    private readonly method: 'tools/call' | 'tools/list' = 'tools/call',
  ) {}

  get recording(): boolean {
    return this.span?.isRecording() ?? false;
  }

  run<T>(work: () => T): T {
    return this.ctx ? context.with(this.ctx, work) : work();
  }

  /** What the connection negotiated; the session id only for 2025-era sessions. */
  connected(protocolVersion: string | undefined, sessionId: string | undefined): void {
    if (!this.recording) return;
    if (protocolVersion) this.span!.setAttribute('mcp.protocol.version', protocolVersion);
    if (sessionId) this.span!.setAttribute('mcp.session.id', sessionId);
  }

  /**
   * The trace context to send upstream (HTTP headers and `params._meta`), naming this span; also
   * for a span that is not sampled, so that the upstream does not sample either. Undefined with traces off.
   */
  carrier(): Record<string, string> | undefined {
    if (!this.span || !this.ctx || !trace.isSpanContextValid(this.span.spanContext())) return undefined;
    const carrier: Record<string, string> = {};
    propagation.inject(this.ctx, carrier);
    return Object.keys(carrier).length > 0 ? carrier : undefined;
  }

  requestId(id: string): void {
    if (this.recording) this.span!.setAttribute('jsonrpc.request.id', id);
  }

  /** Opt-in payload attributes: values already redacted and scrubbed by the caller. */
  payload(name: 'gen_ai.tool.call.arguments' | 'gen_ai.tool.call.result', value: unknown): void {
    if (!this.recording) return;
    const text = JSON.stringify(value);
    if (text !== undefined) this.span!.setAttribute(name, text.length > MAX_PAYLOAD_CHARS ? `${text.slice(0, MAX_PAYLOAD_CHARS)}…` : text);
  }

  succeeded(isError: boolean): void {
    if (!isError) return;
    this.errorType = 'tool_error';
    this.span?.setStatus({ code: SpanStatusCode.ERROR });
  }

  /** The call failed: a JSON-RPC error (its code), or a failure class (`timeout`, `cancelled`, `transport`, …). */
  failed(errorType: string, rpcCode: number | undefined, message: string): void {
    this.errorType = rpcCode !== undefined ? String(rpcCode) : errorType;
    if (rpcCode !== undefined) this.span?.setAttribute('rpc.response.status_code', String(rpcCode));
    this.span?.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 500) });
  }

  end(): void {
    if (this.errorType !== undefined) this.span?.setAttribute('error.type', this.errorType);
    this.span?.end();
    this.metrics?.mcpOperationEnded({ side: 'client', method: this.method, ...errorLabel(this.errorType), transport: this.transport, seconds: (performance.now() - this.started) / 1000 });
  }
}

/** The HTTP SERVER span of one REST request. */
export class HttpServerOperation implements HttpOperation {
  constructor(
    private readonly span: Span | undefined,
    private readonly ctx: Context | undefined,
  ) {}

  run<T>(work: () => T): T {
    return this.ctx ? context.with(this.ctx, work) : work();
  }

  end(statusCode: number | undefined): void {
    if (!this.span) return;
    if (statusCode !== undefined) {
      this.span.setAttribute('http.response.status_code', statusCode);
      if (statusCode >= 500) {
        this.span.setAttribute('error.type', String(statusCode));
        this.span.setStatus({ code: SpanStatusCode.ERROR });
      }
    } else {
      this.span.setAttribute('error.type', '_OTHER');
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

/** The span name's target: the tool or prompt named (bounded), nothing for other methods. */
function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  if ((method === 'tools/call' || method === 'prompts/get') && typeof params.name === 'string' && params.name.length > 0) return params.name.slice(0, 128);
  return undefined;
}

/** The metric's error_type label: bounded to codes and classes Toolplane knows. */
function errorLabel(errorType: string | undefined): { errorType?: string } {
  if (errorType === undefined) return {};
  if (/^-?\d+$/.test(errorType)) return { errorType: KNOWN_ERROR_CODES.has(errorType) ? errorType : '_OTHER' };
  return { errorType };
}

function safeUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, ProtocolError, type CallToolRequest, type StandardSchemaV1, type Tool } from '@modelcontextprotocol/client';
import {
  InvocationFailure,
  ToolInvoker,
  type InvocationFailureKind,
  type InvocationOutcome,
  type InvocationRequest,
  type ProgressUpdate,
} from '../modules/execution/domain/tool-invoker.port.js';
import type { DirectCallOptions } from './http/direct-tool-call.js';
import { relayedInputCapabilities } from './relayed-input.js';
import { listAllTools } from './tool-inventory.js';
import { limitResult } from '../modules/execution/domain/tool-result.js';
import { jsonBytes } from '../shared/json-bytes.js';
import type { ClientSession, TransportFactory } from './transport-factory.js';
import { UpstreamError } from './upstream-error.js';
import { runUpstreamTask, type TaskCallStart } from './upstream-task-call.js';
import type { RelayedCall } from './upstream-call-relay.js';
import { isRecord } from '../shared/is-record.js';
import { SecretScrubber } from '../shared/secret-scrubber.js';
import { redactArguments } from '../modules/execution/domain/argument-redaction.js';
import { NO_TELEMETRY, type ClientOperation, type Telemetry } from '../shared/telemetry.js';

/**
 * The `tools/call` result exactly as the upstream sent it (after the era codec lifted the 2026
 * `resultType`): the method's own result schema would strip unknown fields from content items and
 * reject content types it does not know, and Toolplane records what the tool answered.
 */
const RAW_RESULT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'toolplane', validate: (value) => ({ value }) },
};

/** Progress tokens of task calls: never `toolplane-…`, which the direct stdio caller takes for its own calls. */
const TASK_PROGRESS_PREFIX = 'task-progress-';

/** SEP-2243: a 2026-07-28 tool whose input schema declares parameters mirrored into `Mcp-Param-*` headers. */
const PARAM_HEADER_KEY = 'x-mcp-header';
/** SEP-2243: the server's answer to a request whose Mcp-Param-* headers and body disagree. */
const HEADER_MISMATCH = -32020;

/**
 * ToolInvoker over MCP: one `tools/call` attempt through the TransportFactory's pooled (or, for
 * transient stdio sources, per-use) connections.
 *
 * - Cancellation follows the upstream's era: the SDK sends `notifications/cancelled` when the call's
 *   signal aborts (on 2026-07-28 Streamable HTTP it closes the request's stream instead, and
 *   Toolplane's HTTP transport closes it on 2025-era connections too); a transient stdio process
 *   is stopped when the use ends.
 * - On Streamable HTTP and stdio the call goes out through the connection's direct caller
 *   (DirectToolCaller, StdioDirectToolCaller: same wire exchange, a fraction of the CPU); the SDK
 *   client still negotiates, lists, mirrors headers and hears everything else the server sends.
 * - Results are recorded as answered: content items verbatim, no output-schema validation. No
 *   `tools/list` is needed before a call; the discovered definition only serves to mirror
 *   `x-mcp-header` parameters into `Mcp-Param-*` headers (2026-07-28 over HTTP), and is looked up
 *   when the server asks for such headers and the caller had none.
 * - Log messages: a 2026-07-28 upstream is asked for them with the subscriber's level in `_meta`.
 *   Those on a direct call's own stream are the call's, like a 2025-era server's requests for
 *   input (sampling, elicitation) there; the rest are attributed by the connection's
 *   UpstreamCallRelay (or dropped, or refused, where they cannot be).
 * - 2026-07-28 `input_required` answers are handed back, never fulfilled here; a continuation sends
 *   `inputResponses` and the byte-exact `requestState` on a fresh `tools/call`.
 */
export class McpToolExecutor extends ToolInvoker {
  private taskProgressTokens = 0;

  constructor(
    private readonly transports: TransportFactory,
    private readonly telemetry: Telemetry = NO_TELEMETRY,
  ) {
    super();
  }

  async invoke(request: InvocationRequest): Promise<InvocationOutcome> {
    if (!Number.isFinite(request.maxResultBytes) || request.maxResultBytes <= 0) {
      throw new RangeError(`maxResultBytes must be a positive number, got ${request.maxResultBytes}`);
    }
    // The CLIENT span of this attempt: what it carries upstream names it as the parent.
    const operation = this.telemetry.upstreamCall(request.target, request.toolName);
    const scrubber = this.telemetry.payloads && operation.recording ? SecretScrubber.of(request.target.secrets) : undefined;
    if (scrubber) operation.payload('gen_ai.tool.call.arguments', scrubber.json(redactArguments(request.arguments, request.definition?.inputSchema)));
    try {
      const outcome = await operation.run(() =>
        this.transports.withClient(request.target, (session) => this.callTool(session, request, operation), {
          timeoutMs: request.timeoutMs,
          signal: request.signal,
          signalTimesOut: request.signalTimesOut === true,
        }),
      );
      if (outcome.kind === 'result') {
        operation.succeeded(outcome.isError);
        if (scrubber) operation.payload('gen_ai.tool.call.result', scrubber.json({ content: outcome.content, ...(outcome.structuredContent !== undefined ? { structuredContent: outcome.structuredContent } : {}) }));
      }
      return outcome;
    } catch (error) {
      const failure = toInvocationFailure(error, request);
      if (failure instanceof InvocationFailure) operation.failed(failure.kind, failure.rpcCode, failure.message);
      else operation.failed('_OTHER', undefined, failure.message);
      throw failure;
    } finally {
      operation.end();
    }
  }

  private async callTool(session: ClientSession, request: InvocationRequest, operation: ClientOperation): Promise<InvocationOutcome> {
    const { client } = session;
    session.setPhase(`calling tool ${request.toolName}`);
    const modern = client.getProtocolEra() === 'modern';
    operation.connected(client.getNegotiatedProtocolVersion(), session.connection.legacySessionId);
    // Trace context travels in `params._meta` (SEP-414, unprefixed keys) and, over HTTP, in the headers.
    const traceCarrier = operation.carrier();
    const continuation = request.inputResponses !== undefined || request.requestState !== undefined;
    if (continuation && !modern) {
      throw new UpstreamError(
        'protocol',
        `cannot continue ${request.toolName} with input responses: the server speaks a 2025 protocol revision, which has no input_required round trips`,
      );
    }

    // The retry shape the SDK's own multi round-trip driver sends: the original params plus the
    // answers (when there are any) and the state echoed verbatim.
    // Built by assignment: this runs on every call (conditional spreads cost microseconds here).
    const params: Record<string, unknown> & { name: string } = { name: request.toolName, arguments: request.arguments };
    const meta = withTraceContext(modern ? modernMeta(request) : undefined, traceCarrier);
    if (meta !== undefined) params._meta = meta;
    if (request.inputResponses !== undefined && Object.keys(request.inputResponses).length > 0) params.inputResponses = request.inputResponses;
    if (request.requestState !== undefined) params.requestState = request.requestState;
    const onProgress = request.onProgress;
    const relayProgress = onProgress
      ? (progress: ProgressUpdate) => {
          try {
            onProgress({
              progress: progress.progress,
              ...(progress.total !== undefined ? { total: progress.total } : {}),
              ...(progress.message !== undefined ? { message: progress.message } : {}),
            });
          } catch {
            // a failing progress listener must not fail the call
          }
        }
      : undefined;
    // callTool() mirrors x-mcp-header parameters into Mcp-Param-* headers from the definition. With
    // no outputSchema in it, the SDK neither validates structuredContent nor lists tools to find one.
    const callWithDefinition = (inputSchema: unknown) =>
      client.callTool(params as CallToolRequest['params'], { ...this.options(session, relayProgress), toolDefinition: { name: request.toolName, inputSchema } as Tool });

    // A direct call hears the log messages and requests for input on its own stream; what comes on
    // the connection itself (stdio, SDK requests) is attributed by the connection's relay.
    const listeners: RelayedCall = {};
    if (request.log) listeners.log = request.log;
    if (request.onInputRequest) listeners.onInputRequest = request.onInputRequest;
    const detach = session.connection.calls.attach(listeners);
    try {
      // A 2025-era tool runs as a task when it declares it may; a 2026-07-28 server (its tools declare
      // nothing) when it declares the tasks extension, which Toolplane declares in a task call's request alone.
      const asTask = request.task !== undefined && (modern ? session.connection.takesTaskCalls : request.task.declared);
      if (asTask) return toOutcome(await this.sendAsTask(session, request, params, relayProgress, listeners), request);
      return toOutcome(await this.send(session, request, params, callWithDefinition, relayProgress, traceCarrier, operation), request);
    } finally {
      detach();
    }
  }

  private async send(
    session: ClientSession,
    request: InvocationRequest,
    params: Record<string, unknown> & { name: string },
    callWithDefinition: (inputSchema: unknown) => Promise<unknown>,
    relayProgress: ((update: ProgressUpdate) => void) | undefined,
    traceHeaders: Record<string, string> | undefined,
    operation: ClientOperation,
  ): Promise<unknown> {
    const { client } = session;
    const direct = session.connection.directCaller;
    const modern = client.getProtocolEra() === 'modern';
    const mirroring = modern && session.connection.identity.transport === 'streamable-http';
    const inputSchema = request.definition?.inputSchema;
    if (mirroring && declaresKey(inputSchema, PARAM_HEADER_KEY)) return callWithDefinition(inputSchema);
    try {
      if (!direct) return await client.request({ method: 'tools/call', params }, RAW_RESULT, this.options(session, relayProgress));
      const options: DirectCallOptions = { signal: session.deadline.signal };
      if (relayProgress) options.onProgress = relayProgress;
      if (request.log) options.log = request.log;
      if (request.onInputRequest) options.onInputRequest = request.onInputRequest;
      if (traceHeaders) {
        options.headers = traceHeaders;
        options.onRequestId = (id: string) => operation.requestId(id);
      }
      return await direct.call(params, options);
    } catch (error) {
      // The server wants mirrored headers the caller's definition did not announce (or none was
      // given): look the current definition up once and call with it.
      if (!mirroring || !(error instanceof ProtocolError) || error.code !== HEADER_MISMATCH) throw error;
      session.setPhase(`listing tools to call ${request.toolName}`);
      const tool = (await listAllTools(client, session.requestOptions)).find((candidate) => candidate.name === request.toolName);
      if (!tool || !declaresKey(tool.inputSchema, PARAM_HEADER_KEY)) throw error;
      session.setPhase(`calling tool ${request.toolName}`);
      return callWithDefinition(tool.inputSchema);
    }
  }

  /**
   * The call as a task upstream (see runUpstreamTask): its progress comes through a progress token
   * of its own, heard on the connection for as long as the task runs.
   */
  private async sendAsTask(
    session: ClientSession,
    request: InvocationRequest,
    params: Record<string, unknown> & { name: string },
    relayProgress: ((update: ProgressUpdate) => void) | undefined,
    relayed: RelayedCall,
  ): Promise<unknown> {
    const task = request.task!;
    const client = session.connection.client;
    const progressToken = `${TASK_PROGRESS_PREFIX}${++this.taskProgressTokens}`;
    if (relayProgress) {
      client.taskProgress.set(progressToken, ({ progress, total, message }) => {
        if (typeof progress !== 'number') return;
        relayProgress({ progress, ...(typeof total === 'number' ? { total } : {}), ...(typeof message === 'string' ? { message } : {}) });
      });
    }
    session.setPhase(`calling tool ${request.toolName} as a task`);
    try {
      const start: TaskCallStart = {
        name: request.toolName,
        arguments: request.arguments,
        meta: { ...(params._meta as Record<string, unknown> | undefined), progressToken },
        preference: task.required ? ('require' as const) : ('prefer' as const),
        requestTimeoutMs: session.deadline.remainingMs(),
      };
      // The answers to the rounds of input asked before the task, as the params carry them (each
      // member only when given: what goes upstream must be JSON, which has no undefined).
      if (params.inputResponses !== undefined || params.requestState !== undefined) {
        start.continuation = {};
        if (params.inputResponses !== undefined) start.continuation.inputResponses = params.inputResponses as Record<string, unknown>;
        if (params.requestState !== undefined) start.continuation.requestState = params.requestState as string;
      }
      // The upstream's requests for input that name this task are this call's (see UpstreamCallRelay).
      const onCreated = (taskId: string) => {
        relayed.relatedTaskId = taskId;
        task.onCreated?.(taskId);
      };
      return await runUpstreamTask(session.connection.tasks, start, session.deadline, onCreated);
    } finally {
      client.taskProgress.delete(progressToken);
    }
  }

  private options(session: ClientSession, relayProgress: ((update: ProgressUpdate) => void) | undefined) {
    return { ...session.requestOptions(), allowInputRequired: true, ...(relayProgress ? { onprogress: relayProgress } : {}) };
  }
}

/**
 * The `_meta` Toolplane adds to a 2026-07-28 call (user-supplied keys win over the client's
 * envelope): what the caller itself can answer, and the log level it listens at (a modern server
 * logs only for requests that carry one).
 */
function modernMeta(request: InvocationRequest): Record<string, unknown> | undefined {
  if (request.clientCapabilities === undefined && !request.log) return undefined;
  const meta: Record<string, unknown> = {};
  if (request.clientCapabilities !== undefined) meta[CLIENT_CAPABILITIES_META_KEY] = relayedInputCapabilities(request.clientCapabilities);
  if (request.log) meta[LOG_LEVEL_META_KEY] = request.log.level;
  return meta;
}

/**
 * The call's `_meta` with the trace context keys added (Toolplane's own, so they replace any of the
 * same name); undefined when there is neither.
 */
function withTraceContext(meta: Record<string, unknown> | undefined, carrier: Record<string, string> | undefined): Record<string, unknown> | undefined {
  if (!carrier) return meta;
  return { ...meta, ...carrier };
}

function toOutcome(answer: unknown, request: InvocationRequest): InvocationOutcome {
  if (!isRecord(answer)) throw new UpstreamError('protocol', `${request.toolName} returned a result that is not an object`);
  if (answer.resultType === 'input_required') {
    const inputRequests = isRecord(answer.inputRequests) ? answer.inputRequests : {};
    return {
      kind: 'input_required',
      inputRequests,
      ...(typeof answer.requestState === 'string' ? { requestState: answer.requestState } : {}),
    };
  }
  let content: unknown[];
  if (Array.isArray(answer.content)) content = answer.content;
  else if (answer.content === undefined && 'toolResult' in answer) {
    // 2024-10-07 servers answered with `toolResult` instead of content.
    content = [{ type: 'text', text: JSON.stringify(answer.toolResult) ?? 'null' }];
  } else if (answer.content === undefined) content = [];
  else throw new UpstreamError('protocol', `${request.toolName} returned a result whose content is not an array`);
  const limited = limitResult({ isError: answer.isError === true, content, structuredContent: answer.structuredContent }, request.maxResultBytes);
  const meta = resultMeta(answer._meta);
  return meta ? { ...limited, meta } : limited;
}

/** Largest result `_meta` passed on; a larger one is dropped (the content is what the caller needs). */
const MAX_RESULT_META_BYTES = 16 * 1024;
const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * The result's own `_meta` as the upstream sent it, without the protocol's reserved keys (they
 * describe the upstream's exchange with Toolplane, not the caller's); undefined when nothing is left.
 */
function resultMeta(meta: unknown): Record<string, unknown> | undefined {
  if (!isRecord(meta)) return undefined;
  const kept = Object.entries(meta).filter(([key]) => !key.startsWith(PROTOCOL_META_PREFIX));
  if (kept.length === 0) return undefined;
  const result = Object.fromEntries(kept);
  return jsonBytes(result) <= MAX_RESULT_META_BYTES ? result : undefined;
}

/** Maps what withClient() threw onto the port's failure kinds. */
export function toInvocationFailure(error: unknown, request: Pick<InvocationRequest, 'toolName'>): Error {
  if (error instanceof InvocationFailure) return error;
  if (!(error instanceof UpstreamError)) return error instanceof Error ? error : new Error(String(error));
  const kind = failureKind(error);
  const rpcError = kind === 'protocol' && error.kind === 'protocol' ? rpcErrorOf(error) : undefined;
  const message = error.kind === 'limit' ? `the answer of ${request.toolName} is too large: ${error.message}` : error.message;
  return withCause(new InvocationFailure(kind, message, rpcError?.code, rpcError?.data), error);
}

function failureKind(error: UpstreamError): InvocationFailureKind {
  switch (error.kind) {
    case 'timeout':
      return 'timeout';
    case 'aborted':
      return 'cancelled';
    case 'process':
    case 'unreachable':
    case 'configuration':
      return 'transport';
    case 'http': {
      // Server-side trouble, throttling and a lost session are worth another attempt; other 4xx are not.
      const status = error.httpStatus ?? 0;
      if (status === 401) return 'unauthorized';
      return status >= 500 || status === 404 || status === 408 || status === 429 ? 'transport' : 'protocol';
    }
    case 'protocol':
    case 'limit':
      return 'protocol';
  }
}

function rpcErrorOf(error: UpstreamError): ProtocolError | undefined {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof ProtocolError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function withCause<T extends Error>(error: T, cause: unknown): T {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false, configurable: true, writable: true });
  return error;
}

/** Whether `key` appears anywhere in a JSON schema (bounded walk). */
function declaresKey(schema: unknown, key: string, depth = 0): boolean {
  if (depth > 32 || typeof schema !== 'object' || schema === null) return false;
  if (Array.isArray(schema)) return schema.some((item) => declaresKey(item, key, depth + 1));
  for (const [name, value] of Object.entries(schema)) {
    if (name === key) return true;
    if (declaresKey(value, key, depth + 1)) return true;
  }
  return false;
}

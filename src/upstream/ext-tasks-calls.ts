import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import {
  createTaskSessionFromClient,
  JsonRpcResponseError,
  toolDeclaration,
  type ApplicationInputRequest,
  type RawClientDispatch,
  type ResolvedInputExchangeContext,
  type TaskEnabledSession,
  type TaskExecutionEvent,
} from '@modelcontextprotocol/ext-tasks/client';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, ProtocolError, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { isRecord } from '../shared/is-record.js';
import type { DirectCaller } from './http/direct-tool-call.js';
import type { ToolplaneClient } from './toolplane-client.js';
import { UpstreamError } from './upstream-error.js';
import type { InputRequest } from '../modules/execution/domain/tool-invoker.port.js';
import type { StartedTaskCall, TaskCallOutcome, TaskCallStart, UpstreamTaskCalls } from './upstream-task-call.js';

/** Any result (a `tasks/result` asked only so that the upstream sends its requests for input). */
const ANY_RESULT: StandardSchemaV1<unknown, unknown> = { '~standard': { version: 1, vendor: 'toolplane', validate: (value) => ({ value }) } };

/**
 * The longest Toolplane's own `tasks/result` of a task waiting for input stays open: as long as the
 * wait for the caller's answer may last (TOOLPLANE_TASK_INPUT_WAIT_MS at most); the call's signal
 * ends it sooner.
 */
const INPUT_FETCH_TIMEOUT_MS = 7 * 86_400_000;

/**
 * Carries a task call's continuation (the caller's answers to the rounds of input asked before the
 * task) in its `_meta` to the raw request path, which takes it off and sends it as the call's own
 * `inputResponses` and `requestState`: the Tasks client sends only a tool's name, arguments and `_meta`.
 */
const CONTINUATION_META_KEY = 'dev.toolplane/continuation';

/**
 * A 2026-07-28 upstream answered a task call with a round of `input_required` (SEP-2322) before it
 * made a task: the round is the caller's to answer (Toolplane relays it, and the caller's next call
 * carries the answers), so the Tasks client, which would answer it itself, is stopped with this.
 */
class InputRequiredRound extends Error {
  constructor(readonly result: Record<string, unknown>) {
    super('the upstream asked for input before it made a task');
  }
}

/** A schema-free result codec: the tool's result is recorded as the upstream answered it. */
const RAW_RESULT = { parse: (value: JsonValue) => ({ success: true as const, value: value as unknown }) };

/**
 * UpstreamTaskCalls over the official Tasks client (`@modelcontextprotocol/ext-tasks`): one task
 * session per pooled connection (the package adapts a client once), made on the first task call.
 * On a 2025-11-25 connection a task call is `tools/call` with `params.task`, then `tasks/get` at
 * the server's poll interval and `tasks/result`; `tasks/cancel` to cancel. On a 2026-07-28
 * connection (the `io.modelcontextprotocol/tasks` extension) the task calls — `tools/call` declaring
 * the extension in its client capabilities, then `tasks/get` until the task ends, `tasks/cancel` —
 * go through the connection's raw request path (the SDK client refuses a task answer), framed with
 * the client's own envelope. A server that declares no tasks answers a `prefer` call at once and
 * refuses a `require` one.
 */
export class ExtTasksCalls implements UpstreamTaskCalls {
  private session: TaskEnabledSession | undefined;

  constructor(
    private readonly client: ToolplaneClient,
    /** Names the connection in task references (never sent anywhere). */
    private readonly endpointId: string,
    /** The connection's raw request path, which a 2026-07-28 connection's task calls need. */
    private readonly raw?: DirectCaller,
    /** Puts what a 2026-07-28 upstream task asks (listed while `input_required`) to the call running that task. */
    private readonly askForTask?: (upstreamTaskId: string, request: InputRequest) => Promise<Record<string, unknown>>,
  ) {}

  async start(call: TaskCallStart): Promise<StartedTaskCall> {
    this.session ??= this.newSession();
    if (call.preference === 'require' && !this.session.capabilities.execution) {
      throw new UpstreamError('protocol', `${call.name} must run as a task, and its server declares no tasks for tools/call`);
    }
    const declaration = toolDeclaration({ name: call.name, inputSchema: {}, taskSupport: call.preference === 'require' ? 'required' : 'optional' });
    const metadata = call.continuation !== undefined && this.raw ? { ...call.meta, [CONTINUATION_META_KEY]: call.continuation } : call.meta;
    let execution;
    try {
      execution = await this.session.callTool(call.name, call.arguments as Record<string, JsonValue>, {
        declaration,
        task: { preference: call.preference },
        metadata: metadata as Record<string, JsonValue>,
        requestTimeoutMs: call.requestTimeoutMs,
        resultCodec: RAW_RESULT,
      });
    } catch (error) {
      const round = inputRequiredRound(error);
      if (round) return answeredAtOnce(round.result);
      throw asProtocolError(error);
    }
    const taskId = execution.kind === 'task' ? String(execution.handle.taskId) : undefined;
    const askedForInput = taskId !== undefined && this.client.getProtocolEra() !== 'modern' ? this.inputFetcher(taskId) : undefined;
    return {
      taskId,
      settle: async (signal): Promise<TaskCallOutcome> => {
        try {
          const onEvent = askedForInput ? (event: TaskExecutionEvent<unknown>) => askedForInput(event, signal) : undefined;
          const { outcome } = await execution.settle({ signal, close: false, ...(onEvent ? { onEvent } : {}) });
          if (outcome.status === 'completed') return { status: 'completed', result: outcome.result };
          if (outcome.status === 'cancelled') return { status: 'cancelled' };
          const { message, code, data } = outcome.error;
          return { status: 'failed', message, ...(code !== undefined ? { code } : {}), ...(data !== undefined ? { data } : {}) };
        } catch (error) {
          throw asProtocolError(error);
        }
      },
      cancel: (signal) => execution.cancel(signal),
      close: () => execution.close(),
    };
  }

  /**
   * A 2025-11-25 task that goes `input_required` puts its requests for input on the stream of a
   * `tasks/result` (with the related-task `_meta`, which the connection's relay routes to the call);
   * the Tasks client only polls `tasks/get`, so this asks for the result as soon as the task waits,
   * one request at a time. Its answer is the task's result, which the polling collects too.
   */
  private inputFetcher(taskId: string): (event: TaskExecutionEvent<unknown>, signal: AbortSignal) => void {
    let fetching = false;
    return (event, signal) => {
      if (fetching || event.type !== 'task' || event.task.status !== 'input_required' || signal.aborted) return;
      fetching = true;
      this.client
        .request({ method: 'tasks/result', params: { taskId } }, ANY_RESULT, { signal, timeout: INPUT_FETCH_TIMEOUT_MS })
        .catch(() => undefined)
        .finally(() => (fetching = false));
    };
  }

  private newSession(): TaskEnabledSession {
    const raw = this.raw;
    if (this.client.getProtocolEra() !== 'modern' || !raw) return createTaskSessionFromClient(this.client, { endpointId: this.endpointId });
    const envelope = this.client.metaEnvelope() ?? {};
    const rawDispatch: RawClientDispatch = async (request, options) => {
      const { method, params = {} } = request as { method: string; params?: Record<string, unknown> };
      const toolCall = method === 'tools/call';
      const answer = await raw.request(method, toolCall ? withContinuation(params) : params, options?.signal ?? new AbortController().signal);
      if ('result' in answer) {
        if (toolCall && isRecord(answer.result) && answer.result.resultType === 'input_required') throw new InputRequiredRound(answer.result);
        return { kind: 'result', result: answer.result as JsonValue };
      }
      const { code, message, data } = answer.error;
      return { kind: 'error', error: { code, message, ...(data !== undefined ? { data: data as JsonValue } : {}) } };
    };
    const ask = this.askForTask;
    return createTaskSessionFromClient(this.client, {
      endpointId: this.endpointId,
      rawDispatch,
      // Answered with tasks/update once the call's caller answered; a refusal cancels an elicitation.
      ...(ask
        ? { onInputRequest: (request: ApplicationInputRequest, context: ResolvedInputExchangeContext) => (context.taskId === undefined ? Promise.reject(new Error('no task named')) : ask(String(context.taskId), inputRequestOf(request))) as never }
        : {}),
      v2RequestFraming: {
        protocolVersion: this.client.getNegotiatedProtocolVersion() ?? '',
        clientInfo: (isRecord(envelope[CLIENT_INFO_META_KEY]) ? envelope[CLIENT_INFO_META_KEY] : {}) as Record<string, JsonValue>,
        clientCapabilities: (isRecord(envelope[CLIENT_CAPABILITIES_META_KEY]) ? envelope[CLIENT_CAPABILITIES_META_KEY] : {}) as Record<string, JsonValue>,
      },
    });
  }

  /** Lets go of the session (the connection is closing). */
  close(): void {
    const session = this.session;
    this.session = undefined;
    void session?.close().catch(() => undefined);
  }
}

/** A `tools/call`'s params with the continuation in their `_meta` (see CONTINUATION_META_KEY) moved to where the protocol has it. */
function withContinuation(params: Record<string, unknown>): Record<string, unknown> {
  const meta = params._meta;
  if (!isRecord(meta) || !(CONTINUATION_META_KEY in meta)) return params;
  const { [CONTINUATION_META_KEY]: continuation, ...rest } = meta;
  const { inputResponses, requestState } = isRecord(continuation) ? continuation : {};
  const sent: Record<string, unknown> = { ...params, _meta: rest };
  if (isRecord(inputResponses) && Object.keys(inputResponses).length > 0) sent.inputResponses = inputResponses;
  if (typeof requestState === 'string') sent.requestState = requestState;
  return sent;
}

/** The round of input the upstream asked for, wherever the Tasks client wrapped the error that stopped it. */
function inputRequiredRound(error: unknown): InputRequiredRound | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof InputRequiredRound) return cause;
  }
  return undefined;
}

/** A call the upstream answered at once (here: with a round of input for the caller), no task made. */
function answeredAtOnce(result: unknown): StartedTaskCall {
  return {
    taskId: undefined,
    settle: () => Promise.resolve({ status: 'completed', result }),
    cancel: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** What an upstream task asks, as Toolplane's callers are asked it. */
function inputRequestOf(request: ApplicationInputRequest): InputRequest {
  const params = { ...(request.params ?? {}) } as Record<string, unknown>;
  if (request.kind === 'sampling') return { method: 'sampling/createMessage', params };
  if (request.kind === 'roots') return { method: 'roots/list', params };
  return { method: 'elicitation/create', params };
}

/** A JSON-RPC error answer as the SDK's own error, which the failure descriptions read; anything else as it is. */
function asProtocolError(error: unknown): unknown {
  if (error instanceof JsonRpcResponseError) return new ProtocolError(error.code, error.message, error.data);
  return error;
}

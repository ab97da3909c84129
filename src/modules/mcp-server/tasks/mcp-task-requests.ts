import { Inject, Injectable } from '@nestjs/common';
import type { TaskV1 } from '@modelcontextprotocol/ext-tasks/core/v1';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, SERVER_INFO_META_KEY, classifyInboundRequest } from '@modelcontextprotocol/server';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { CallTasks } from '../../execution/application/call-tasks.js';
import { recordOfView } from '../../executions/application/execution-view.js';
import type { TaskState } from '../../executions/application/task-state.js';
import { CatalogSnapshots } from '../../catalog/application/catalog-snapshots.js';
import { isRecord } from '../../../shared/is-record.js';
import type { ServedEra } from '../calls/call-result.js';
import type { McpExchange } from '../mcp-exchange.js';
import { McpToolServers, SERVER_INFO } from '../mcp-tool-servers.js';
import { detailedTaskOf, finalCallResult, taskViewOf } from './task-answers.js';
import { TaskStatusNotifier } from './task-status-notifier.js';
import { inputResponsesProblem } from '../../execution/application/task-input.js';
import { legacyResultStream, type InputAnswer } from './legacy-input-relay.js';
import { decodeTaskCursor, declaresTasksExtension, encodeTaskCursor, isTaskIdShape, readTaskId, readTaskParam, TASKS_EXTENSION, toTaskV1 } from './task-wire.js';

/** How long `tasks/cancel` waits for the cancelled call's final record before it answers. */
const CANCEL_SETTLE_MS = 5_000;
const HEADER_MISMATCH = -32020;

/** The methods of tasks, per era: 2026-07-28 removed `tasks/result` and `tasks/list` (the result is on `tasks/get`). */
const LEGACY_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);
const MODERN_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** One JSON-RPC answer: the result or error, and the HTTP status it goes with; or, for a `tasks/result` that puts requests for input to its caller first, the Server-Sent Events stream that ends with it. */
export interface TaskAnswer {
  status: number;
  body: Record<string, unknown>;
  stream?: ReadableStream<Uint8Array>;
}

/** What of the HTTP request the tasks' requests read besides the body. */
export interface TaskRequestHeaders {
  protocolVersion?: string;
  mcpMethod?: string;
  mcpName?: string;
}

/**
 * The requests of MCP tasks, which the SDK's server does not serve, answered ahead of it on every
 * MCP endpoint:
 *
 * - 2025-11-25: a `tools/call` asking for a task (`params.task`), and `tasks/get`, `tasks/result`
 *   (waits for the final state, then answers what the call would have), `tasks/list` and
 *   `tasks/cancel`;
 * - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, declared in each request's client
 *   capabilities): `tasks/get` (the result or error inlined once final, the open requests while
 *   it waits for input), `tasks/cancel` and `tasks/update` (answers to those requests).
 *
 * A task is its caller's principal's: to anyone else it is unknown, with the same error.
 */
@Injectable()
export class McpTaskRequests {
  constructor(
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(McpToolServers) private readonly servers: McpToolServers,
    @Inject(CatalogSnapshots) private readonly catalog: CatalogSnapshots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(TaskStatusNotifier) private readonly notifier: TaskStatusNotifier,
  ) {}

  /** Whether a request is one of tasks' own (cheap: read on every request before anything else). */
  static concerns(body: unknown): boolean {
    if (!isRecord(body) || typeof body.method !== 'string') return false;
    if (body.method.startsWith('tasks/')) return true;
    return body.method === 'tools/call' && isRecord(body.params) && body.params.task !== undefined && !isRecord(isRecord(body.params._meta) ? body.params._meta[CLIENT_CAPABILITIES_META_KEY] : undefined);
  }

  /** Answers a request `concerns` accepted; `signal` aborts when the caller goes away. */
  async answer(body: Record<string, unknown>, exchange: McpExchange, headers: TaskRequestHeaders, signal: AbortSignal): Promise<TaskAnswer> {
    const answer = await this.answerRequest(body, exchange, headers, signal);
    return { ...answer, body: { jsonrpc: '2.0', id: idOf(body), ...answer.body } };
  }

  /**
   * A caller's answer to a request for input its 2025-11-25 `tasks/result` put to it (see
   * legacy-input-relay): handed to the task, on whichever replica runs it. A JSON-RPC error is a
   * cancelled elicitation; to another request it is no answer. Anything else is ignored alike.
   */
  async takeInputAnswer(answer: InputAnswer, exchange: McpExchange): Promise<void> {
    const principalId = exchange.principal.id;
    let result = answer.result;
    if (!result) {
      const state = await this.tasks.state(answer.taskId, principalId);
      if (state?.task?.inputRequests?.[answer.key]?.method !== 'elicitation/create') return;
      result = { action: 'cancel' };
    }
    await this.tasks.answerInput(answer.taskId, principalId, { [answer.key]: result });
  }

  private async answerRequest(body: Record<string, unknown>, exchange: McpExchange, headers: TaskRequestHeaders, signal: AbortSignal): Promise<TaskAnswer> {
    const id = idOf(body);
    const method = body.method as string;
    const classified = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: headers.protocolVersion, mcpMethodHeader: headers.mcpMethod, mcpNameHeader: headers.mcpName, body });
    if (classified.kind === 'reject') return error(classified.httpStatus, id, classified.code, classified.message, classified.data);
    const era: ServedEra = classified.kind === 'modern' ? 'modern' : 'legacy';
    if (id === null) return error(400, null, ProtocolErrorCode.InvalidRequest, 'Invalid Request: a request needs an id');
    try {
      if (method === 'tools/call') return ok(await this.startTask(body.params, exchange, id));
      if (!(era === 'modern' ? MODERN_METHODS : LEGACY_METHODS).has(method)) return error(era === 'modern' ? 404 : 200, id, ProtocolErrorCode.MethodNotFound, 'Method not found');
      if (era === 'modern') return await this.answerModern(method, body.params, exchange, headers, id);
      if (method === 'tasks/result') return await this.legacyResult(body.params, exchange, id, signal);
      return ok(await this.answerLegacy(method, body.params, exchange));
    } catch (thrown) {
      if (thrown instanceof ProtocolError) return error(era === 'modern' && thrown.code === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : 200, id, thrown.code, thrown.message, thrown.data);
      throw thrown;
    }
  }

  private async startTask(params: unknown, exchange: McpExchange, id: string | number): Promise<Record<string, unknown>> {
    const task = readTaskParam(params);
    const { name, arguments: args } = isRecord(params) ? params : {};
    if (task && 'problem' in task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${task.problem}`);
    if (typeof name !== 'string' || name.length === 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: params.name must be a tool name');
    if (args !== undefined && !isRecord(args)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: params.arguments must be an object');
    const answer = await this.servers.startTask(exchange, id, name, args, task?.ttlMs);
    // Its caller's session hears of each change (notifications/tasks/status) on its standalone stream.
    const started = answer.task as TaskV1;
    if (exchange.sessionId !== undefined) this.notifier.follow(exchange.sessionId, exchange.principal.id, started.taskId, started);
    return answer;
  }

  private async answerLegacy(method: string, params: unknown, exchange: McpExchange): Promise<Record<string, unknown>> {
    const principalId = exchange.principal.id;
    if (method === 'tasks/list') {
      const cursor = isRecord(params) ? params.cursor : undefined;
      const after = cursor === undefined ? undefined : decodeTaskCursor(cursor);
      if (cursor !== undefined && after === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: not one this endpoint issued');
      const pageSize = Math.min(this.config.mcpPageSize, 100);
      const states = await this.tasks.list(principalId, after, pageSize + 1);
      const page = states.slice(0, pageSize);
      const last = page.at(-1);
      return { tasks: page.map((state) => toTaskV1(this.view(state))), ...(states.length > pageSize && last ? { nextCursor: encodeTaskCursor(this.view(last).taskId) } : {}) };
    }
    const taskId = taskIdOf(params);
    const state = await this.stateOf(taskId, principalId);
    if (method === 'tasks/get') return { ...toTaskV1(this.view(state)) };
    if (method === 'tasks/cancel' && state.final) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it already ended (${this.view(state).status})`);
    return { ...toTaskV1(this.view(await this.cancel(taskId, principalId))) };
  }

  /**
   * 2025-11-25 `tasks/result`: once the call has its final record, what it would have answered. A
   * task that waits for its caller's input first answers as a stream: the requests (each once),
   * then that answer (legacy-input-relay).
   */
  private async legacyResult(params: unknown, exchange: McpExchange, id: string | number, signal: AbortSignal): Promise<TaskAnswer> {
    const taskId = taskIdOf(params);
    const principalId = exchange.principal.id;
    if (!isTaskIdShape(taskId)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId.slice(0, 64)}`);
    const looks = this.tasks.follow(taskId, principalId, signal)[Symbol.asyncIterator]();
    // Letting go of the follower ends its wait (its listener for the task's changes among it).
    const letGo = () => void looks.return?.(undefined);
    for (;;) {
      const look = await looks.next();
      // No such task of this principal (its first look), or it expired or the caller left.
      if (look.done) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId.slice(0, 64)}`);
      const state = look.value;
      if (state.final) {
        letGo();
        return ok(await this.legacyResultOf(taskId, state));
      }
      if (state.status === 'awaiting_input') {
        const states = (async function* () {
          try {
            yield state;
            for (let next = await looks.next(); !next.done; next = await looks.next()) yield next.value;
          } finally {
            letGo();
          }
        })();
        const final = async (ended: TaskState) => {
          try {
            return { jsonrpc: '2.0', id, result: await this.legacyResultOf(taskId, ended) };
          } catch (thrown) {
            if (!(thrown instanceof ProtocolError)) throw thrown;
            return { jsonrpc: '2.0', id, error: { code: thrown.code, message: thrown.message, ...(thrown.data !== undefined ? { data: thrown.data } : {}) } };
          }
        };
        return { status: 200, body: {}, stream: legacyResultStream(taskId, states, final) };
      }
    }
  }

  /** What the call of an ended task would have answered, naming the task in its `_meta`; a JSON-RPC error is thrown. */
  private async legacyResultOf(taskId: string, state: TaskState): Promise<Record<string, unknown>> {
    const record = recordOfView(state.record!);
    const related = { [RELATED_TASK_META_KEY]: { taskId } };
    try {
      const result = finalCallResult('legacy', record, record.qualifiedName, await this.outputSchemaOf(record.qualifiedName));
      return { ...result, _meta: { ...result._meta, ...related } };
    } catch (thrown) {
      if (thrown instanceof ProtocolError) throw new ProtocolError(thrown.code, thrown.message, isRecord(thrown.data) ? { ...thrown.data, ...related } : related);
      throw thrown;
    }
  }

  private async answerModern(method: string, params: unknown, exchange: McpExchange, headers: TaskRequestHeaders, id: string | number): Promise<TaskAnswer> {
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : {};
    if (!declaresTasksExtension(meta[CLIENT_CAPABILITIES_META_KEY])) {
      throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, `${method} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    const taskId = taskIdOf(params);
    // Routing intermediaries read the task from the Mcp-Name header: it must say what the body says.
    if (headers.mcpName !== taskId) {
      return error(400, id, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: the Mcp-Name header must name the task ${taskId.slice(0, 100)}`, {
        mismatch: { header: headers.mcpName ?? null, body: taskId },
      });
    }
    const principalId = exchange.principal.id;
    const state = await this.stateOf(taskId, principalId);
    if (method === 'tasks/update') {
      const responses = isRecord(params) ? params.inputResponses : undefined;
      const problem = inputResponsesProblem(responses);
      if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${problem}`);
      if (state.status !== 'awaiting_input') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} is not waiting for input (${this.view(state).status})`);
      // Answers naming no open request are ignored; the next tasks/get says where the task stands.
      await this.tasks.answerInput(taskId, principalId, responses as Record<string, unknown>);
      return ok(modern({}));
    }
    if (method === 'tasks/cancel') {
      // A task that already ended is acknowledged alike: cancelling is idempotent.
      if (!state.final) await this.cancel(taskId, principalId);
      return ok(modern({}));
    }
    const view = this.view(state);
    const detailed = detailedTaskOf(state, view);
    return ok(modern(detailed));
  }

  /** The task as its principal sees it: an unknown one, or another principal's, is an invalid-params error alike. */
  private async stateOf(taskId: string, principalId: string): Promise<TaskState> {
    const state = isTaskIdShape(taskId) ? await this.tasks.state(taskId, principalId) : undefined;
    if (!state) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId.slice(0, 64)}`);
    return state;
  }

  /** Asks for cancellation, and waits a little for the call's final record, so that the answer can say it was cancelled. */
  private async cancel(taskId: string, principalId: string): Promise<TaskState> {
    const cancelled = await this.tasks.cancel(taskId, principalId);
    if (!cancelled) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
    if (cancelled.final) return cancelled;
    await this.tasks.awaitFinal(taskId, principalId, AbortSignal.timeout(CANCEL_SETTLE_MS)).catch(() => undefined);
    return (await this.tasks.state(taskId, principalId)) ?? cancelled;
  }

  private view(state: TaskState) {
    return taskViewOf(state, this.config.executionRetentionMs);
  }

  private async outputSchemaOf(qualifiedName: string): Promise<Record<string, unknown> | undefined> {
    const tool = (await this.catalog.snapshot().catch(() => undefined))?.byQualifiedName.get(qualifiedName);
    return tool?.outputSchema ?? undefined;
  }
}

function taskIdOf(params: unknown): string {
  const read = readTaskId(params);
  if ('problem' in read) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${read.problem}`);
  return read.taskId;
}

/** A 2026-07-28 result: complete, and saying who answered. */
function modern(result: Record<string, unknown>): Record<string, unknown> {
  return { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } };
}

function ok(result: Record<string, unknown>): TaskAnswer {
  return { status: 200, body: { result } };
}

function idOf(body: Record<string, unknown>): string | number | null {
  return typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
}

function error(status: number, id: string | number | null, code: number, message: string, data?: unknown): TaskAnswer {
  return { status, body: { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } } };
}

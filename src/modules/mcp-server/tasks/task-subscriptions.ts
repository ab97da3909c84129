import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolErrorCode, SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY, classifyInboundRequest } from '@modelcontextprotocol/server';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import { KEEP_ALIVE_MS } from '../../../shared/http/server-sent-events.js';
import { isRecord } from '../../../shared/is-record.js';
import { CallTasks } from '../../execution/application/call-tasks.js';
import type { McpExchange } from '../mcp-exchange.js';
import { jsonRpcError } from '../mcp-gateway-server.js';
import { SERVER_INFO } from '../mcp-tool-servers.js';
import { detailedTaskOf } from './task-answers.js';
import type { TaskRequestHeaders } from './mcp-task-requests.js';
import { TaskStatusNotifier, type TellTask } from './task-status-notifier.js';
import {
  acknowledgedWithTaskIds,
  asksForTaskNotifications,
  frameOf,
  honorsNothing,
  isAcknowledgement,
  isSubscriptionEnd,
  messageOfFrame,
  readListenTaskIds,
  SseFrames,
  withoutTaskIds,
} from './task-subscription-wire.js';
import { declaresTasksExtension, TASKS_EXTENSION } from './task-wire.js';

/** Listen streams at most per process that stay open for their tasks alone; past it, task ids are not acknowledged. */
const MAX_TASK_LISTENS = 1_024;

/**
 * 2026-07-28 `subscriptions/listen` with the tasks extension's filter (`notifications.taskIds`):
 * `notifications/tasks` on the listen stream, a `DetailedTask` as `tasks/get` would answer it,
 * each time one of the caller's own tasks named changes status.
 *
 * The SDK's handler serves the rest of the filter (tool-list changes and the others) as it does any
 * listen: it is given the request without `taskIds` (which its filter does not know), after the
 * same validation. Its stream is passed on with the task notifications merged in: its
 * acknowledgement gains the task ids agreed to (the caller's own tasks, unknown and other
 * principals' ones alike left out), its notifications and keep-alives go through. When it honors
 * nothing of its own it ends its stream at once; the stream then stays open for the tasks, and ends
 * (gracefully, with the empty listen result) once they all have, or at shutdown.
 *
 * Each task is followed where the caller listens (TaskStatusNotifier), so a change made by another
 * replica is told as soon as it is announced there.
 */
@Injectable()
export class TaskSubscriptions implements BeforeApplicationShutdown {
  private readonly open = new Set<(graceful: boolean) => void>();

  constructor(
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(TaskStatusNotifier) private readonly notifier: TaskStatusNotifier,
  ) {}

  /** Whether a request is a listen asking for task notifications (cheap: read on every request). */
  static concerns(body: unknown): boolean {
    return asksForTaskNotifications(body);
  }

  /** Listen streams open for tasks here now. */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * Answers a listen `concerns` accepted: the SDK's answer (`sdk` serves a listen body) with the
   * caller's tasks merged in, or an error. `signal` aborts when the caller goes away.
   */
  async serve(body: Record<string, unknown>, exchange: McpExchange, headers: TaskRequestHeaders, signal: AbortSignal, sdk: (body: Record<string, unknown>) => Promise<Response>): Promise<Response> {
    if (!asksForTaskNotifications(body)) return sdk(body);
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    const classified = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: headers.protocolVersion, mcpMethodHeader: headers.mcpMethod, mcpNameHeader: headers.mcpName, body });
    if (classified.kind === 'reject') return jsonRpcError(classified.httpStatus, classified.code, classified.message, id, {}, classified.data);
    // A 2025-era client has no listen: the SDK answers it as it answers any request it does not serve.
    if (classified.kind !== 'modern' || id === null) return sdk(body);
    const meta = isRecord(body.params._meta) ? body.params._meta : {};
    if (!declaresTasksExtension(meta[CLIENT_CAPABILITIES_META_KEY])) {
      return jsonRpcError(400, ProtocolErrorCode.MissingRequiredClientCapability, `Task notifications need the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`, id, {}, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    const asked = readListenTaskIds(body.params.notifications);
    if ('problem' in asked) return jsonRpcError(200, ProtocolErrorCode.InvalidParams, `Invalid params: ${asked.problem}`, id);
    const response = await sdk(withoutTaskIds(body));
    if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
    return new Response(this.merged(response.body, id, exchange.principal.id, asked.taskIds, signal), { status: response.status, headers: response.headers });
  }

  /** Ends the streams kept open for tasks alone, gracefully (the SDK ends its own). */
  beforeApplicationShutdown(): void {
    for (const end of [...this.open]) end(true);
  }

  /** The SDK's listen stream, with the acknowledgement of the task ids and their notifications merged in. */
  private merged(sdkBody: ReadableStream<Uint8Array>, id: string | number, principalId: string, asked: string[], signal: AbortSignal): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const reader = sdkBody.getReader();
    const watches = new CallerDeparture();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let acknowledged = false;
    /** Told before the acknowledgement went out (a task's state is told at once): sent right after it. */
    const early: string[] = [];
    let sdkEnded = false;
    let sdkHonorsNothing = false;
    let following = 0;
    let keepAlive: NodeJS.Timeout | undefined;

    const write = (frame: string) => {
      if (closed) return;
      if (!acknowledged) return void early.push(frame);
      try {
        controller.enqueue(encoder.encode(frame));
      } catch {
        end(false);
      }
    };
    const end = (graceful: boolean) => {
      if (closed) return;
      if (graceful) write(frameOf({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: id, [SERVER_INFO_META_KEY]: SERVER_INFO } } }));
      closed = true;
      this.open.delete(end);
      watches.abort();
      clearInterval(keepAlive);
      signal.removeEventListener('abort', gone);
      reader.cancel().catch(() => undefined);
      try {
        controller.close();
      } catch {
        // already closed by the reader's side
      }
    };
    const gone = () => end(false);
    signal.addEventListener('abort', gone, { once: true });

    const tell: TellTask = (state, view) =>
      write(frameOf({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...detailedTaskOf(state, view), _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } }));
    const watchEnded = () => {
      following--;
      // Nothing left to tell on a stream the SDK no longer serves: it ends, as the SDK ends one that honors nothing.
      if (following === 0 && sdkEnded && sdkHonorsNothing) end(true);
    };
    const honor = async (): Promise<string[]> => {
      if (this.open.size >= MAX_TASK_LISTENS) return [];
      const states = await Promise.all(asked.map((taskId) => this.tasks.state(taskId, principalId).catch(() => undefined)));
      const honored: string[] = [];
      asked.forEach((taskId, at) => {
        if (!states[at] || closed) return;
        if (this.notifier.watch(principalId, taskId, { until: watches, ended: watchEnded }, tell)) {
          following++;
          honored.push(taskId);
        }
      });
      return honored;
    };

    const pump = async () => {
      const frames = new SseFrames();
      const decoder = new TextDecoder();
      let keptOpen = false;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const frame of frames.push(decoder.decode(value, { stream: true }))) {
            const message = messageOfFrame(frame);
            if (!acknowledged && isAcknowledgement(message)) {
              sdkHonorsNothing = honorsNothing(message);
              const honored = await honor();
              if (closed) return;
              keptOpen = sdkHonorsNothing && honored.length > 0;
              if (keptOpen) {
                this.open.add(end);
                keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS);
                keepAlive.unref();
              }
              acknowledged = true;
              write(frameOf(acknowledgedWithTaskIds(message, honored)));
              for (const told of early.splice(0)) write(told);
              continue;
            }
            // The SDK ends a stream that honors nothing of its own at once: it stays open here for its tasks.
            if (keptOpen && isSubscriptionEnd(message, id)) continue;
            write(`${frame}\n\n`);
          }
        }
      } catch {
        // the SDK's stream failed or was cancelled: it ends below
      }
      sdkEnded = true;
      if (!keptOpen) return end(false);
      if (following === 0) end(true);
    };

    return new ReadableStream<Uint8Array>({
      start: (streamController) => {
        controller = streamController;
        if (signal.aborted) return void end(false);
        void pump();
      },
      cancel: () => end(false),
    });
  }
}

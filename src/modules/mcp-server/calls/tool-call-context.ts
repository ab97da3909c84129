import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ExecutionCaller } from '../../executions/domain/execution.js';
import type { InputRequestHandler, LogLevel, UpstreamLogMessage } from '../../execution/domain/tool-invoker.port.js';
import type { ServedEra } from './call-result.js';
import type { CallerSignal } from '../../../shared/caller-signal.js';

/** A notification toward the caller, on the stream of the request it concerns. */
export interface OutboundNotification {
  method: string;
  params: Record<string, unknown>;
}

/**
 * One MCP `tools/call` as the tool servers serve it, whoever parsed it: the SDK's per-exchange
 * server, or the stateless fast path (see recognizeStatelessToolCall).
 */
export interface ToolCallContext {
  era: ServedEra;
  /** The request's JSON-RPC id (a 2025-era `notifications/cancelled` names it). */
  id: string | number;
  /** Aborts when the caller goes away. */
  signal: CallerSignal;
  progressToken?: string | number;
  /**
   * The level the caller hears the upstream's log messages at: a 2026-07-28 request's envelope
   * names it (none without); a 2025-era caller hears every level its session allows.
   */
  logLevel?: LogLevel;
  /** 2026-07-28 multi round-trip continuation. */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /** What the caller declared it can answer. */
  clientCapabilities: Record<string, unknown>;
  /** The request's `_meta` asked for the execution in the result (see EXECUTION_META_KEY). */
  executionMeta: boolean;
  /**
   * How the call may become a task: `start` — the caller asked for one (2025-11-25 `params.task`),
   * kept for `ttlMs`; `capable` — the caller can use tasks (2026-07-28 tasks extension), so the
   * call becomes one when its tool runs as a task, when it waits for approval, or when it outlives
   * TOOLPLANE_TASK_AFTER_MS. Absent: the caller is answered in its request, however long it takes.
   */
  task?: { mode: 'start'; ttlMs?: number } | { mode: 'capable' };
  caller: ExecutionCaller;
  /**
   * Puts an upstream's request for input to the caller, as a server-to-client request: only a
   * 2025-era caller on a session can be asked so (others are answered through `input_required`
   * results, or not at all).
   */
  ask?: InputRequestHandler;
  notify(notification: OutboundNotification): Promise<void>;
  log(message: UpstreamLogMessage): Promise<void>;
  /** The tool result as the caller's era carries it (see projectCallToolResult). */
  project(result: CallToolResult, outputSchema: Record<string, unknown> | undefined): CallToolResult;
}

/**
 * A tool result as each era's wire carries it, as the SDK's codecs project it: a structuredContent
 * that is not an object gets a text rendering when the content has no text; on the 2025 wire,
 * which allows objects only, such a value (or any value of a tool whose output schema is not an
 * object schema) travels wrapped as `{ result: value }`.
 */
export function projectCallToolResult(era: ServedEra, result: CallToolResult, outputSchema: Record<string, unknown> | undefined): CallToolResult {
  const structured: unknown = result.structuredContent;
  if (structured === undefined) return result;
  const nonObject = typeof structured !== 'object' || structured === null || Array.isArray(structured);
  const withText =
    nonObject && !result.content.some((item) => item.type === 'text')
      ? { ...result, content: [...result.content, { type: 'text' as const, text: JSON.stringify(structured) }] }
      : result;
  if (era === 'modern') return withText;
  const wrapped = nonObject || (outputSchema !== undefined && outputSchema.type !== 'object');
  return wrapped ? { ...withText, structuredContent: { result: structured } } : withText;
}

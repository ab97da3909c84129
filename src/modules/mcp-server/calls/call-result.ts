import { ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult, type InputRequests } from '@modelcontextprotocol/server';
import type { ExecutionRecord } from '../../executions/domain/execution.js';

/**
 * `_meta` key naming the execution Toolplane recorded for a tools/call: in the result when the
 * request's own `_meta` holds it set to `true` (otherwise a result carries only what the upstream sent).
 */
export const EXECUTION_META_KEY = 'dev.toolplane/execution';
/** The response header naming the execution of an HTTP `tools/call`, for every caller. */
export const EXECUTION_ID_HEADER = 'toolplane-execution-id';

export interface CallResultOptions {
  /** When set, an unknown tool is an error result with this text (the gateway's call_tool itself exists). */
  unknownToolText?: string;
  /** The caller asked for `_meta["dev.toolplane/execution"]` (its id and outcome) in the result. */
  executionMeta?: boolean;
}

export type ServedEra = 'legacy' | 'modern';

/**
 * The MCP answer to a tools/call, from the execution ExecuteTool recorded:
 *
 * - the tool ran: its content, structuredContent and isError as it answered them (capped);
 * - the upstream asks for input (2026-07-28): an `input_required` result carrying its
 *   inputRequests and requestState untouched (for a 2025-era caller the SDK sends the requests
 *   themselves when its session allows, and answers an error result otherwise);
 * - no such tool: a JSON-RPC invalid-params error (-32602), as the specification requires (an
 *   error result through the gateway's call_tool, which itself exists);
 * - the upstream answered the call with a JSON-RPC invalid-params error (e.g. a tampered
 *   `requestState`): the same error, for the request was invalid, not the tool's run; likewise a
 *   missing-client-capability error (-32021, with its data), the upstream having been told the
 *   caller's own capabilities;
 * - any other refusal (invalid arguments, disabled, read-only, concurrency limit, open circuit,
 *   timeout, upstream failure): an `isError` result whose text gives the reason, so that the
 *   model can read it and act on it.
 *
 * A result's `_meta` is the upstream's own; `_meta["dev.toolplane/execution"]` (the execution's id and
 * outcome) is added only when the caller asked for it.
 */
export function toCallToolResult(record: ExecutionRecord, requestedName: string, options: CallResultOptions = {}): CallToolResult | InputRequiredResult {
  const { unknownToolText } = options;
  const result = record.result;
  const ours = options.executionMeta ? { [EXECUTION_META_KEY]: executionMeta(record) } : undefined;
  if ((record.status === 'succeeded' || record.status === 'tool_error') && result) {
    // Built by assignment: every call answered on /mcp passes here.
    const answer: CallToolResult = { content: result.content as CallToolResult['content'] };
    if (result.structuredContent !== undefined && result.structuredContent !== null) answer.structuredContent = result.structuredContent as Record<string, unknown>;
    if (record.isError) answer.isError = true;
    if (result.meta || ours) answer._meta = { ...result.meta, ...ours };
    return answer;
  }
  if (record.status === 'input_required' && result) {
    // Toward a 2025-era caller the SDK turns this into real server-to-client requests on a session
    // whose client declared the capability (and answers an error result otherwise).
    return {
      resultType: 'input_required',
      ...(result.inputRequests !== undefined ? { inputRequests: result.inputRequests as InputRequests } : {}),
      ...(result.requestState !== undefined ? { requestState: result.requestState } : {}),
      ...(ours ? { _meta: ours } : {}),
    };
  }
  const error = record.error ?? { code: 'INTERNAL_ERROR', message: 'The call ended without a result.', retryable: false };
  if (error.code === 'TOOL_NOT_FOUND') {
    if (unknownToolText !== undefined) return errorResult(unknownToolText, ours);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${requestedName.slice(0, 200)}`, { code: error.code, execution: record.id });
  }
  const upstream = error.upstream;
  if (upstream?.code === ProtocolErrorCode.InvalidParams) {
    // The upstream refused the request itself (a forged requestState, malformed inputResponses):
    // as for an unknown tool, the caller gets the JSON-RPC error the upstream answered.
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code, execution: record.id });
  }
  if (upstream?.code === ProtocolErrorCode.MissingRequiredClientCapability) {
    // The upstream was told the caller's own capabilities: what it misses is the caller's to declare.
    throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, `${requestedName.slice(0, 200)} needs a capability the client did not declare`, upstream.data ?? { requiredCapabilities: {} });
  }
  const details = (error.details ?? []).map((d) => `- ${d.path}: ${d.message}`).join('\n');
  const retry = error.retryAfterMs !== undefined ? ` Retry after ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s.` : error.retryable ? ' Retrying may help.' : '';
  return errorResult(`[${error.code}] ${error.message}${retry}${details ? `\n${details}` : ''}`, ours);
}

function errorResult(text: string, meta: Record<string, unknown> | undefined): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true, ...(meta ? { _meta: meta } : {}) };
}

function executionMeta(record: ExecutionRecord): Record<string, unknown> {
  return {
    id: record.id,
    status: record.status,
    ...(record.error ? { code: record.error.code, retryable: record.error.retryable } : {}),
    ...(record.error?.retryAfterMs !== undefined ? { retryAfterMs: record.error.retryAfterMs } : {}),
    ...(record.result?.truncated ? { truncated: true, originalBytes: record.result.originalBytes } : {}),
  };
}

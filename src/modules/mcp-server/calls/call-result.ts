import { ProtocolError, ProtocolErrorCode, UrlElicitationRequiredError, type CallToolResult, type InputRequiredResult, type InputRequests } from '@modelcontextprotocol/server';
import type { ExecutionRecord } from '../../executions/domain/execution.js';

/**
 * `_meta` key naming the execution Toolplane recorded for a tools/call: in the result when the
 * request's own `_meta` holds it set to `true` (otherwise a result carries only what the upstream sent).
 */
export const EXECUTION_META_KEY = 'dev.toolplane/execution';
/** The response header naming the execution of an HTTP `tools/call`, for every caller. */
export const EXECUTION_ID_HEADER = 'toolplane-execution-id';
/** `_meta` key of an error result naming the URL where its caller connects its account to a source. */
export const CONNECT_URL_META_KEY = 'io.toolplane/connectUrl';
/** `_meta` key of an error result naming the caller's own secrets a source needs. */
export const MISSING_SECRETS_META_KEY = 'io.toolplane/missingSecrets';

export interface CallResultOptions {
  /** When set, an unknown tool is an error result with this text (the gateway's call_tool itself exists). */
  unknownToolText?: string;
  /** The caller asked for `_meta["dev.toolplane/execution"]` (its id and outcome) in the result. */
  executionMeta?: boolean;
  /**
   * The caller takes URL-mode elicitation as the 2025-11-25 revision's `-32042` error (it declared
   * `elicitation.url`): a call refused for want of the caller's consent is answered so.
   */
  urlElicitation?: boolean;
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
 * - the source needs the caller's own consent first (UPSTREAM_CONSENT_REQUIRED): toward a
 *   2025-11-25 caller that declared `elicitation.url`, the URLElicitationRequiredError (-32042)
 *   whose elicitation opens the connect URL; toward any other, an error result saying what to
 *   open, the URL in `_meta["io.toolplane/connectUrl"]`;
 * - the source needs a value of the caller's own (UPSTREAM_CREDENTIAL_REQUIRED): an error result
 *   naming the missing `${user-secret:…}` values and how to set them;
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
  if (error.code === 'UPSTREAM_CONSENT_REQUIRED' || error.code === 'UPSTREAM_CREDENTIAL_REQUIRED') return credentialRequired(record, error, options, ours);
  const details = (error.details ?? []).map((d) => `- ${d.path}: ${d.message}`).join('\n');
  const retry = error.retryAfterMs !== undefined ? ` Retry after ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s.` : error.retryable ? ' Retrying may help.' : '';
  return errorResult(`[${error.code}] ${error.message}${retry}${details ? `\n${details}` : ''}`, ours);
}

/**
 * A call refused until the caller connects its account (consent) or sets a value of its own: said in
 * words a model can pass on to its user, the URL and the names also in `_meta`.
 */
function credentialRequired(record: ExecutionRecord, error: NonNullable<ExecutionRecord['error']>, options: CallResultOptions, ours: Record<string, unknown> | undefined): CallToolResult {
  const connectUrl = error.details?.find((d) => d.path === 'connectUrl')?.message;
  const missing = (error.details ?? []).filter((d) => d.path === 'missing').map((d) => d.message);
  if (error.code === 'UPSTREAM_CONSENT_REQUIRED' && connectUrl !== undefined) {
    if (options.urlElicitation) {
      // The execution id is unique, and names the refused call in the caller's own records.
      throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId: record.id, url: connectUrl, message: error.message }], error.message);
    }
    return errorResult(`[${error.code}] ${error.message}\nOpen ${connectUrl} in a browser to connect, then call the tool again.`, { ...ours, [CONNECT_URL_META_KEY]: connectUrl });
  }
  const how = missing.map((name) => `- \${user-secret:${name}}: set it with PUT /api/v1/me/secrets/${encodeURIComponent(name)} and a body {"value": "…"} (your own value; no one else's calls use it)`);
  const text = `[${error.code}] ${error.message}${how.length > 0 ? `\nMissing values of your own:\n${how.join('\n')}\nThen call the tool again.` : ''}`;
  return errorResult(text, missing.length > 0 ? { ...ours, [MISSING_SECRETS_META_KEY]: missing } : ours);
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

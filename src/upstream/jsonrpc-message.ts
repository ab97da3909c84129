import { parseJSONRPCMessage, type JSONRPCMessage, type JSONRPCResultResponse } from '@modelcontextprotocol/client';
import { isPlainObject } from '../shared/is-record.js';

/**
 * A parsed JSON value as a JSON-RPC message, accepted exactly as the SDK's `parseJSONRPCMessage`
 * accepts it (which throws for anything else). Most messages an upstream sends are one shape — a
 * result response whose result has no `_meta` — which the SDK's schema takes unchanged: that shape
 * is recognised here without the schema, whose validation was a measurable share of every call's
 * CPU. Everything else (requests, notifications, errors, results with `_meta`, anything odd) goes
 * to the SDK.
 */
export function toJsonRpcMessage(value: unknown): JSONRPCMessage {
  return isPlainResultResponse(value) ? value : parseJSONRPCMessage(value);
}

/**
 * `{"jsonrpc": "2.0", "id": …, "result": {…}}` and nothing else: an id the SDK takes (a string or a
 * safe integer) and a result that is a plain object with neither `_meta` (whose contents the SDK
 * checks and may rewrite) nor an own `__proto__` key (which the SDK's copy would not keep).
 */
function isPlainResultResponse(value: unknown): value is JSONRPCResultResponse {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return false;
  const { id, result } = value;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (!isPlainObject(result) || Object.hasOwn(result, '_meta') || Object.hasOwn(result, '__proto__')) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
    keys += 1;
  }
  return keys === 3;
}

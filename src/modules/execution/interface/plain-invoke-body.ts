import { isPlainObject } from '../../../shared/is-record.js';
import { INVOKE_TIMEOUT_MS, MAX_REQUEST_STATE_LENGTH, type InvokeToolDto } from './invoke.dto.js';

const MEMBERS = new Set(['arguments', 'timeoutMs', 'inputResponses', 'requestState']);

/**
 * The common invoke body, recognised without class-validator: a JSON object whose members are
 * InvokeToolDto's, each plainly within its rules (arguments: anything; timeoutMs: an integer within
 * INVOKE_TIMEOUT_MS; inputResponses: an object; requestState: a string of at most
 * MAX_REQUEST_STATE_LENGTH UTF-16 units; any of them null or absent). Undefined for anything else, which validateDto checks and
 * names every problem of. Nothing this accepts gets a problem from validateDto.
 */
export function plainInvokeBody(body: unknown): InvokeToolDto | undefined {
  if (!isPlainObject(body)) return undefined;
  for (const key of Object.keys(body)) if (!MEMBERS.has(key)) return undefined;
  const { timeoutMs, inputResponses, requestState } = body;
  if (timeoutMs !== undefined && timeoutMs !== null && !(Number.isInteger(timeoutMs) && (timeoutMs as number) >= INVOKE_TIMEOUT_MS.min && (timeoutMs as number) <= INVOKE_TIMEOUT_MS.max)) return undefined;
  if (inputResponses !== undefined && inputResponses !== null && (typeof inputResponses !== 'object' || Array.isArray(inputResponses))) return undefined;
  // A string this long in UTF-16 units is at most this long as MaxLength counts (it counts a surrogate pair once).
  if (requestState !== undefined && requestState !== null && !(typeof requestState === 'string' && requestState.length <= MAX_REQUEST_STATE_LENGTH)) return undefined;
  return body as InvokeToolDto;
}

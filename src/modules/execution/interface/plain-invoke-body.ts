import type { InvokeToolDto } from './invoke.dto.js';

const MEMBERS = new Set(['arguments', 'timeoutMs', 'inputResponses', 'requestState']);

/**
 * The common invoke body, recognised without class-validator: a JSON object whose members are
 * InvokeToolDto's, each plainly within its rules (arguments: anything; timeoutMs: an integer from 1
 * to 3,600,000; inputResponses: an object; requestState: a string of at most 1,000,000 UTF-16
 * units; any of them null or absent). Undefined for anything else, which validateDto checks and
 * names every problem of. Nothing this accepts gets a problem from validateDto.
 */
export function plainInvokeBody(body: unknown): InvokeToolDto | undefined {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  const members = body as Record<string, unknown>;
  for (const key of Object.keys(members)) if (!MEMBERS.has(key)) return undefined;
  const { timeoutMs, inputResponses, requestState } = members;
  if (timeoutMs !== undefined && timeoutMs !== null && !(Number.isInteger(timeoutMs) && (timeoutMs as number) >= 1 && (timeoutMs as number) <= 3_600_000)) return undefined;
  if (inputResponses !== undefined && inputResponses !== null && (typeof inputResponses !== 'object' || Array.isArray(inputResponses))) return undefined;
  if (requestState !== undefined && requestState !== null && !(typeof requestState === 'string' && requestState.length <= 1_000_000)) return undefined;
  return members as InvokeToolDto;
}

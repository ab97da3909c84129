import type { ProblemDetail } from '../../../shared/domain-error.js';
import { isRecord } from '../../../shared/is-record.js';
import type { ExecutionResult } from '../../executions/domain/execution.js';
import type { HoldRequest, InterceptorChanges, InterceptorVerdict } from './intercepted-call.js';
import type { InterceptorPhase } from './interceptor.js';

/** What an interceptor may say (a denial's message, a warning) is kept up to this many characters. */
export const MAX_MESSAGE_CHARS = 2000;
const MAX_PATHS = 100;
const MAX_PATH_CHARS = 300;
const MAX_COUNTS = 50;
const MAX_COUNT_KEY_CHARS = 100;
const MAX_DETAILS = 100;
/** A denial's own code: a stable code as Toolplane's are; anything else is INTERCEPTOR_DENIED. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
export const DENIED_CODE = 'INTERCEPTOR_DENIED';

/**
 * An engine's answer as the chain uses it, or why it cannot be used. Engines may pass on what a
 * remote service answered (webhooks), so the answer is checked for its shape and bounded before
 * it reaches the call or its record: texts cut, lists and counts limited, a denial's code one
 * of stable-code form.
 */
export function checkedVerdict(answer: unknown, phase: InterceptorPhase): InterceptorVerdict | { invalid: string } {
  if (!isRecord(answer)) return { invalid: 'it answered no verdict' };
  const warning = typeof answer.warning === 'string' ? { warning: bounded(answer.warning) } : {};
  switch (answer.decision) {
    case 'allow':
      return { decision: 'allow', ...warning };
    case 'deny': {
      if (typeof answer.message !== 'string' || answer.message.length === 0) return { invalid: 'it denied the call without a message' };
      const details = Array.isArray(answer.details) ? boundedDetails(answer.details) : undefined;
      return {
        decision: 'deny',
        message: bounded(answer.message),
        ...(typeof answer.code === 'string' && CODE.test(answer.code) ? { code: answer.code } : {}),
        ...(details && details.length > 0 ? { details } : {}),
      };
    }
    case 'modify': {
      const changes = boundedChanges(answer.changes);
      if (phase === 'pre') {
        if (answer.arguments !== undefined && !isRecord(answer.arguments)) return { invalid: 'it answered arguments that are not an object' };
        return { decision: 'modify', ...(answer.arguments !== undefined ? { arguments: answer.arguments } : {}), changes, ...warning };
      }
      if (answer.result !== undefined && !isResult(answer.result)) return { invalid: 'it answered a result without a content list' };
      if (answer.isError !== undefined && typeof answer.isError !== 'boolean') return { invalid: 'it answered an isError that is not a boolean' };
      return {
        decision: 'modify',
        ...(answer.result !== undefined ? { result: answer.result } : {}),
        ...(typeof answer.isError === 'boolean' ? { isError: answer.isError } : {}),
        changes,
        ...warning,
      };
    }
    case 'hold':
      // Only the approval engine holds calls; the chain refuses a hold from any other kind.
      if (phase !== 'pre' || !isRecord(answer.hold)) return { invalid: 'it answered a hold without what it waits for' };
      return { decision: 'hold', hold: answer.hold as unknown as HoldRequest };
    default:
      return { invalid: 'it answered no known decision' };
  }
}

/** What changed, as the record keeps it: paths and counts, bounded; never values. */
export function boundedChanges(changes: unknown): InterceptorChanges {
  if (!isRecord(changes)) return {};
  const kept: InterceptorChanges = {};
  if (Array.isArray(changes.paths)) {
    const paths = changes.paths.filter((path): path is string => typeof path === 'string').slice(0, MAX_PATHS);
    kept.paths = paths.map((path) => bounded(path, MAX_PATH_CHARS));
  }
  if (isRecord(changes.counts)) {
    const counts: Record<string, number> = {};
    let n = 0;
    for (const [key, value] of Object.entries(changes.counts)) {
      if (n >= MAX_COUNTS) break;
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      counts[bounded(key, MAX_COUNT_KEY_CHARS)] = value;
      n += 1;
    }
    kept.counts = counts;
  }
  if (typeof changes.truncated === 'boolean') kept.truncated = changes.truncated;
  return kept;
}

/** A text cut to `max` characters (never inside a surrogate pair), with an ellipsis when cut. */
export function bounded(text: string, max = MAX_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

function boundedDetails(details: unknown[]): ProblemDetail[] {
  const kept: ProblemDetail[] = [];
  for (const detail of details) {
    if (kept.length >= MAX_DETAILS) break;
    if (isRecord(detail) && typeof detail.path === 'string' && typeof detail.message === 'string') {
      kept.push({ path: bounded(detail.path, MAX_PATH_CHARS), message: bounded(detail.message) });
    }
  }
  return kept;
}

function isResult(value: unknown): value is ExecutionResult {
  return isRecord(value) && Array.isArray(value.content);
}

import type { ExecutionRecord } from '../../executions/domain/execution.js';

/** DESIGN §3: a tool's own isError is a 200; everything else says why it did not run. */
export function httpStatusOf(record: ExecutionRecord): number {
  switch (record.status) {
    case 'succeeded':
    case 'tool_error':
    case 'input_required':
      return 200;
    case 'invalid_arguments':
      return 400;
    case 'rejected':
      switch (record.error?.code) {
        case 'TOOL_NOT_FOUND':
        case 'GROUP_NOT_FOUND':
          return 404;
        case 'UPSTREAM_CREDENTIAL_REQUIRED':
        case 'UPSTREAM_CONSENT_REQUIRED':
          return 401;
        case 'CONCURRENCY_LIMIT':
        case 'RATE_LIMITED':
          return 429;
        case 'TOOL_UNUSABLE':
        case 'TOOL_PENDING_REVIEW':
        case 'TOOL_REJECTED':
          return 409;
        case 'SHUTTING_DOWN':
        case 'RECORD_UNAVAILABLE':
        case 'INTERCEPTOR_FAILED': // an interceptor that had to decide failed (timed out, its service down)
          return 503;
        default:
          return 403;
      }
    case 'circuit_open':
      return 503;
    case 'timeout':
      return 504;
    case 'cancelled':
      return 499;
    case 'upstream_error':
      return record.error?.code === 'INTERNAL_ERROR' ? 500 : 502;
    case 'interrupted':
      // A stored state, never a call's answer.
      return 500;
  }
}

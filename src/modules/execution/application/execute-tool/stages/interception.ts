import { activeTrace } from '../../../../../shared/active-trace.js';
import type { ExecutionStatus } from '../../../../executions/domain/execution.js';
import type { ChainDenial } from '../../../../interceptors/application/interceptor-chain.js';
import type { InterceptedCall } from '../../../../interceptors/domain/intercepted-call.js';
import { APPROVAL_WITHDRAWN } from '../../../../interceptors/domain/engines/approval-engine.js';
import { DENIED_CODE } from '../../../../interceptors/domain/verdict-check.js';
import type { Call } from '../call.js';
import { refuse, type Refusal } from '../outcome.js';

/** Codes a denial may carry that say the arguments were refused (400) rather than the call (403). */
const ARGUMENT_CODES: ReadonlySet<string> = new Set(['ARGUMENT_LOCKED', 'INVALID_ARGUMENTS']);
/** The code of a held call its caller cancelled before the decision (an approval `withdrawn`): recorded `cancelled`. */
export const CANCELLED_CODE = APPROVAL_WITHDRAWN;
/** Codes the pipeline gives other meanings (an answer's status, an MCP error): a denial carrying one is INTERCEPTOR_DENIED. */
const PIPELINE_CODES: ReadonlySet<string> = new Set([
  'TOOL_NOT_FOUND',
  'GROUP_NOT_FOUND',
  'CONCURRENCY_LIMIT',
  'RATE_LIMITED',
  'TOOL_UNUSABLE',
  'TOOL_PENDING_REVIEW',
  'TOOL_REJECTED',
  'SHUTTING_DOWN',
  'RECORD_UNAVAILABLE',
  'INTERNAL_ERROR',
  // An MCP caller is sent to the refusal's connect URL: only Toolplane's own credential step names one.
  'UPSTREAM_CONSENT_REQUIRED',
  'UPSTREAM_CREDENTIAL_REQUIRED',
]);

/** What an interceptor sees of a call that prepare-arguments let through (its route and arguments set). */
export function interceptedCallOf(call: Call): InterceptedCall {
  const { tool, source } = call.route!;
  const { caller, channel } = call.command;
  const traceparent = activeTrace.carrier()?.traceparent;
  return {
    executionId: call.id,
    tool: {
      qualifiedName: tool.qualifiedName,
      name: tool.name,
      sourceName: source.name,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
      description: tool.description,
    },
    group: call.input.group ?? null,
    principal: { id: caller.principalId, name: caller.principalName },
    channel,
    arguments: call.arguments!,
    ...(traceparent !== undefined ? { traceparent } : {}),
    ...(call.input.approval !== undefined ? { approval: call.input.approval } : {}),
  };
}

/**
 * A chain's denial as the call's refusal: `rejected` (403) as INTERCEPTOR_DENIED or the denial's
 * own code, `invalid_arguments` (400) for a code that refuses the arguments (ARGUMENT_LOCKED), and
 * INTERCEPTOR_FAILED (503) for an interceptor with onError deny that failed.
 */
export function refusalOf(denial: ChainDenial): Refusal {
  const code = PIPELINE_CODES.has(denial.code) ? DENIED_CODE : denial.code;
  const status: ExecutionStatus = ARGUMENT_CODES.has(code) ? 'invalid_arguments' : code === CANCELLED_CODE ? 'cancelled' : 'rejected';
  return refuse(status, code, denial.message, denial.retryable, denial.details);
}

import type { ApprovalRun } from '../../../executions/domain/execution.js';
import type { ApprovalGrant, InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { ApprovalSettings, InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import { argumentsHashOf } from '../arguments-hash.js';
import { argumentMeets, compileRule, type CompiledRule } from './deny-engine.js';

export const APPROVAL_DENIED = 'APPROVAL_DENIED';
export const APPROVAL_TIMED_OUT = 'APPROVAL_TIMED_OUT';
export const APPROVAL_MISMATCH = 'APPROVAL_MISMATCH';
/** A call approved under one approval interceptor that another would hold too: one call takes one approval. */
export const APPROVAL_CONFLICT = 'APPROVAL_CONFLICT';
/** A held call its caller cancelled before the decision: recorded `cancelled`. */
export const APPROVAL_WITHDRAWN = 'CALL_CANCELLED';

/** MCP's defaults of the tool annotations: what an annotation a tool does not declare means. */
const ANNOTATION_DEFAULTS: Readonly<Record<string, boolean>> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * `approval`: holds a call until a person decides it. A call with no decision yet is held when
 * its `when` conditions hold (every part given: the tool's annotations, any argument condition,
 * the caller listed), else allowed. A call resumed after this interceptor's decision is allowed
 * when it was approved for the very arguments it now has, else denied: APPROVAL_DENIED,
 * APPROVAL_TIMED_OUT, APPROVAL_MISMATCH when its arguments are not those the approver saw, or
 * CALL_CANCELLED when its caller withdrew it. The decision goes on the run's record (`approval`).
 */
export class ApprovalEngine implements InterceptorEngine {
  readonly kind = 'approval';
  private readonly compiled = new WeakMap<InterceptorSpec, CompiledRule[]>();

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    if (interceptor.kind !== 'approval') throw new Error(`the approval engine was given a ${interceptor.kind} interceptor`);
    const settings = interceptor.settings;
    const grant = call.approval;
    if (grant !== undefined && grant.interceptor === interceptor.name) {
      const approval = approvalRun(grant);
      const by = grant.decidedBy ? ` by ${grant.decidedBy.name}` : '';
      const why = grant.comment ? `: ${grant.comment}` : '';
      switch (grant.decision) {
        case 'denied':
          return { decision: 'deny', code: APPROVAL_DENIED, message: `the call was denied${by}${why}`, approval };
        case 'expired':
          return { decision: 'deny', code: APPROVAL_TIMED_OUT, message: `nobody decided the call within ${interceptor.timeoutMs} ms`, approval };
        case 'withdrawn':
          return { decision: 'deny', code: APPROVAL_WITHDRAWN, message: 'the caller cancelled the call before it was decided', approval };
        case 'approved':
          if (argumentsHashOf(call.arguments) !== grant.argumentsHash) return { decision: 'deny', code: APPROVAL_MISMATCH, message: 'the arguments are not those the approver saw', approval };
          return { decision: 'allow', approval };
      }
    }
    if (!this.holds(interceptor, settings, call)) return { decision: 'allow' };
    // Held again after another interceptor's decision, it would wait for a second one that its
    // resumed call could never carry: refused, never let through unasked.
    if (grant !== undefined) {
      return { decision: 'deny', code: APPROVAL_CONFLICT, message: `the call was decided under the approval interceptor "${grant.interceptor}" and needs this one's too; one call takes one approval (narrow their scopes or conditions)` };
    }
    return {
      decision: 'hold',
      hold: {
        approvers: settings.approvers,
        timeoutMs: interceptor.timeoutMs,
        ...(interceptor.description ? { message: interceptor.description } : {}),
        ...(settings.notify ? { notify: settings.notify } : {}),
      },
    };
  }

  private holds(interceptor: InterceptorSpec, { when }: ApprovalSettings, call: InterceptedCall): boolean {
    if (when === undefined) return true;
    if (when.annotations !== undefined) {
      const declared = call.tool.annotations ?? {};
      for (const [name, wanted] of Object.entries(when.annotations)) {
        const value = typeof declared[name] === 'boolean' ? declared[name] : ANNOTATION_DEFAULTS[name];
        if (value !== wanted) return false;
      }
    }
    if (when.principals !== undefined && !when.principals.some((listed) => listed === call.principal.id || listed === call.principal.name)) return false;
    if (when.arguments !== undefined && !this.conditionsOf(interceptor, when.arguments).some((rule) => argumentMeets(rule, call.arguments) !== undefined)) return false;
    return true;
  }

  private conditionsOf(interceptor: InterceptorSpec, conditions: NonNullable<ApprovalSettings['when']>['arguments'] & object): CompiledRule[] {
    let rules = this.compiled.get(interceptor);
    if (!rules) {
      rules = conditions.map((condition) => compileRule({ ...condition, message: 'needs approval' }));
      this.compiled.set(interceptor, rules);
    }
    return rules;
  }
}

/** The decision as the record keeps it. */
function approvalRun(grant: ApprovalGrant): ApprovalRun {
  return {
    id: grant.id,
    decision: grant.decision,
    ...(grant.decidedBy ? { decidedBy: grant.decidedBy } : {}),
    ...(grant.comment !== undefined ? { comment: grant.comment } : {}),
    requestedAt: grant.requestedAt,
    decidedAt: grant.decidedAt,
  };
}

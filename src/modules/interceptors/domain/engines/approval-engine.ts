import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { ApprovalSettings, InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import { argumentsHash } from '../arguments-hash.js';
import { argumentMeets, compileRule, type CompiledRule } from './deny-engine.js';

export const APPROVAL_DENIED = 'APPROVAL_DENIED';
export const APPROVAL_TIMED_OUT = 'APPROVAL_TIMED_OUT';
export const APPROVAL_MISMATCH = 'APPROVAL_MISMATCH';

/** MCP's defaults of the tool annotations: what an annotation a tool does not declare means. */
const ANNOTATION_DEFAULTS: Readonly<Record<string, boolean>> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * `approval`: holds a call until a person decides it. A call with no decision yet is held when
 * its `when` conditions hold (every part given: the tool's annotations, any argument condition,
 * the caller listed), else allowed. A call resumed after this interceptor's decision is allowed
 * when it was approved for the very arguments it now has, else denied: APPROVAL_DENIED,
 * APPROVAL_TIMED_OUT, or APPROVAL_MISMATCH when its arguments are not those the approver saw.
 */
export class ApprovalEngine implements InterceptorEngine {
  readonly kind = 'approval';
  private readonly compiled = new WeakMap<InterceptorSpec, CompiledRule[]>();

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    if (interceptor.kind !== 'approval') throw new Error(`the approval engine was given a ${interceptor.kind} interceptor`);
    const settings = interceptor.settings;
    const grant = call.approval;
    if (grant !== undefined && grant.interceptor === interceptor.name) {
      const by = grant.decidedBy ? ` by ${grant.decidedBy.name}` : '';
      const why = grant.comment ? `: ${grant.comment}` : '';
      if (grant.decision === 'denied') return { decision: 'deny', code: APPROVAL_DENIED, message: `the call was denied${by}${why}` };
      if (grant.decision === 'expired') return { decision: 'deny', code: APPROVAL_TIMED_OUT, message: `nobody decided the call within ${interceptor.timeoutMs} ms` };
      if (argumentsHash(call.arguments) !== grant.argumentsHash) {
        return { decision: 'deny', code: APPROVAL_MISMATCH, message: 'the arguments are not those the approver saw' };
      }
      return { decision: 'allow' };
    }
    if (!this.holds(interceptor, settings, call)) return { decision: 'allow' };
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

import { sameJson } from '../../../../shared/canonical-json.js';
import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import { argumentValues, leftOut, withValues } from './argument-values.js';

export const ARGUMENT_LOCKED = 'ARGUMENT_LOCKED';

/**
 * `lock`: every call gets the configured values (top-level names). A call that gives one of them
 * another value (deep JSON equality, key order aside) is refused with ARGUMENT_LOCKED, naming
 * every such argument; giving the locked value itself is allowed.
 */
export class LockEngine implements InterceptorEngine {
  readonly kind = 'lock';

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    const set = new Map<string, unknown>();
    const conflicting: string[] = [];
    for (const [name, value] of Object.entries(argumentValues(interceptor, 'lock').arguments)) {
      if (leftOut(call.arguments, name)) set.set(name, value);
      else if (!sameJson(call.arguments[name], value)) conflicting.push(name);
    }
    if (conflicting.length > 0) {
      const names = conflicting.map((name) => `"${name}"`).join(', ');
      return {
        decision: 'deny',
        code: ARGUMENT_LOCKED,
        message: `The interceptor "${interceptor.name}" locks ${conflicting.length === 1 ? 'the argument' : 'the arguments'} ${names}: leave ${conflicting.length === 1 ? 'it' : 'them'} out or give the locked value.`,
        details: conflicting.map((name) => ({ path: `arguments.${name}`, message: 'is locked to another value' })),
      };
    }
    if (set.size === 0) return { decision: 'allow' };
    return { decision: 'modify', arguments: withValues(call.arguments, set), changes: { paths: [...set.keys()].map((name) => `arguments.${name}`) } };
  }
}

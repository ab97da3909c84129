import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import { argumentValues, leftOut, withValues } from './argument-values.js';

/** `defaults`: gives the arguments a call leaves out (top-level names) their configured values; a value the caller gives is the caller's. */
export class DefaultsEngine implements InterceptorEngine {
  readonly kind = 'defaults';

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    const filled = new Map<string, unknown>();
    for (const [name, value] of Object.entries(argumentValues(interceptor, 'defaults').arguments)) {
      if (leftOut(call.arguments, name)) filled.set(name, value);
    }
    if (filled.size === 0) return { decision: 'allow' };
    return { decision: 'modify', arguments: withValues(call.arguments, filled), changes: { paths: [...filled.keys()].map((name) => `arguments.${name}`) } };
  }
}

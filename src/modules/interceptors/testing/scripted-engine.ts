import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../domain/intercepted-call.js';
import type { InterceptorKind, InterceptorPhase, InterceptorSpec } from '../domain/interceptor.js';

type Answer = (interceptor: InterceptorSpec, phase: InterceptorPhase, call: InterceptedCall, signal: AbortSignal) => InterceptorVerdict | Promise<InterceptorVerdict>;

/** An engine of one kind whose answer per interceptor name is scripted (allow when none is); it keeps what it saw. */
export class ScriptedEngine implements InterceptorEngine {
  readonly seen: { name: string; phase: InterceptorPhase; call: InterceptedCall; signal: AbortSignal }[] = [];
  private readonly answers = new Map<string, Answer>();

  constructor(readonly kind: InterceptorKind = 'webhook') {}

  answer(name: string, answer: Answer | InterceptorVerdict): this {
    this.answers.set(name, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  run(interceptor: InterceptorSpec, phase: InterceptorPhase, call: InterceptedCall, signal: AbortSignal): InterceptorVerdict | Promise<InterceptorVerdict> {
    this.seen.push({ name: interceptor.name, phase, call, signal });
    const answer = this.answers.get(interceptor.name);
    return answer ? answer(interceptor, phase, call, signal) : { decision: 'allow' };
  }
}

import type { InterceptorChain } from '../../../../interceptors/application/interceptor-chain.js';
import type { InterceptorSpec } from '../../../../interceptors/domain/interceptor.js';
import type { Call } from '../call.js';
import type { CallStage, StageVerdict } from './call-stage.js';
import { interceptedCallOf, refusalOf } from './interception.js';

/**
 * The post interceptors: those in force that apply to the call (InterceptorChain), on the result
 * the tool answered (succeeded or tool_error; an upstream asking for input has not answered yet),
 * already scrubbed of the source's secrets — an interceptor may send it elsewhere. A result an
 * interceptor replaces becomes the call's; a denial turns the outcome into the refusal (the tool
 * ran: its attempts stay on the record). A call none applies to passes at the cost of the
 * selection's lookup.
 */
export class InterceptResultStage implements CallStage {
  constructor(private readonly chain: InterceptorChain) {}

  run(call: Call): StageVerdict | Promise<StageVerdict> {
    const outcome = call.outcome;
    if (!outcome?.result || (outcome.status !== 'succeeded' && outcome.status !== 'tool_error')) return undefined;
    const { tool, source } = call.route!;
    const applying = this.chain.applying('post', source.name, call.input.group ?? null, tool.qualifiedName);
    return applying.length === 0 ? undefined : this.intercept(call, applying);
  }

  private async intercept(call: Call, applying: readonly InterceptorSpec[]): Promise<StageVerdict> {
    const answered = call.outcome!;
    const result = call.scrubber.empty ? answered.result! : call.scrubber.json(answered.result!);
    const outcome = await this.chain.run('post', applying, { ...interceptedCallOf(call), result }, { signal: call.command.signal });
    call.interceptors = [...call.interceptors, ...outcome.runs];
    if (outcome.denial) return refusalOf(outcome.denial);
    if (outcome.result !== answered.result) call.outcome = { ...answered, result: outcome.result! };
    return undefined;
  }
}

import type { ProblemDetail } from '../../../../../shared/domain-error.js';
import type { InterceptorChain } from '../../../../interceptors/application/interceptor-chain.js';
import type { InterceptorSpec } from '../../../../interceptors/domain/interceptor.js';
import type { ArgumentValidator } from '../../../domain/argument-validator.port.js';
import type { Call } from '../call.js';
import type { CallStage, PreStageVerdict } from './call-stage.js';
import { interceptedCallOf, refusalOf } from './interception.js';
import { Hold } from '../outcome.js';

/**
 * The pre interceptors: those in force that apply to the call (InterceptorChain), on the checked
 * arguments, before the guard and the started record. Arguments an interceptor replaces are
 * checked against the tool's inputSchema again (a mismatch is that interceptor's failure) and
 * become `call.arguments`, which the upstream gets and the record shows. A denial refuses the call
 * (INTERCEPTOR_DENIED or the denial's code, INTERCEPTOR_FAILED); nothing is sent. A call none
 * applies to passes at the cost of the selection's lookup.
 */
export class InterceptArgumentsStage implements CallStage<PreStageVerdict> {
  constructor(
    private readonly chain: InterceptorChain,
    private readonly validator: ArgumentValidator,
  ) {}

  run(call: Call): PreStageVerdict | Promise<PreStageVerdict> {
    const { tool, source } = call.route!;
    const applying = this.chain.applying('pre', source.name, call.input.group ?? null, tool.qualifiedName);
    return applying.length === 0 ? undefined : this.intercept(call, applying);
  }

  private async intercept(call: Call, applying: readonly InterceptorSpec[]): Promise<PreStageVerdict> {
    const given = call.arguments!;
    const outcome = await this.chain.run('pre', applying, interceptedCallOf(call), { signal: call.command.signal, checkArguments: (args) => this.problems(call, args) });
    call.interceptors = [...call.interceptors, ...outcome.runs];
    if (outcome.arguments !== given) {
      call.arguments = outcome.arguments;
      call.argumentsReplaced = true;
    }
    if (outcome.hold) return new Hold(outcome.hold);
    return outcome.denial ? refusalOf(outcome.denial) : undefined;
  }

  private async problems(call: Call, args: Record<string, unknown>): Promise<ProblemDetail[]> {
    const { tool } = call.route!;
    const checking = this.validator.validate(tool.definitionHash, tool.inputSchema, args);
    const check = checking instanceof Promise ? await checking : checking;
    return 'unusable' in check ? [{ path: 'arguments', message: `cannot be checked: ${check.unusable}` }] : check.problems;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { heavySteps, isHeavy } from '../../../../../shared/heavy-steps.js';
import { withoutAbsentNulls } from '../../../domain/absent-nulls.js';
import { ArgumentValidator } from '../../../domain/argument-validator.port.js';
import { unstorablePaths } from '../../../domain/storable-json.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Makes the arguments ready to send, or refuses them: they must be a JSON object (INVALID_ARGUMENTS)
 * nesting at most 64 levels (INVALID_ARGUMENTS), hold only text that can be recorded
 * (UNSTORABLE_ARGUMENTS), and — once the nulls a strict-mode client sent for optional properties are
 * left out (withoutAbsentNulls) — match the tool's inputSchema (INVALID_ARGUMENTS, every problem
 * listed; TOOL_UNUSABLE when the schema cannot be checked at all). Sets `call.arguments`.
 */
@Injectable()
export class PrepareArgumentsStage {
  constructor(@Inject(ArgumentValidator) private readonly validator: ArgumentValidator) {}

  async run(call: Call): Promise<StageVerdict> {
    const { tool } = call.route!;
    const given = call.given ?? {};
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      return refuse('invalid_arguments', 'INVALID_ARGUMENTS', 'arguments must be a JSON object.', false, [{ path: 'arguments', message: 'must be an object' }]);
    }
    // The checks below pass over every argument: for large ones each pass takes a turn of the event
    // loop of its own (a pass over 6,600 objects holds it a few milliseconds, all of them together 30).
    const heavy = isHeavy(given);
    if (heavy) await heavySteps.turn();
    if (depthOf(given) > MAX_ARGUMENT_DEPTH) {
      return refuse('invalid_arguments', 'INVALID_ARGUMENTS', `arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels.`, false, [
        { path: 'arguments', message: `nests deeper than ${MAX_ARGUMENT_DEPTH} levels` },
      ]);
    }
    const unstorable = unstorablePaths(given);
    if (unstorable.length > 0) {
      return refuse('invalid_arguments', 'UNSTORABLE_ARGUMENTS', 'The arguments hold text that cannot be recorded (a NUL character or a lone UTF-16 surrogate); nothing was sent.', false, unstorable);
    }
    if (heavy) await heavySteps.turn();
    const args = withoutAbsentNulls(tool.inputSchema, given as Record<string, unknown>);
    if (heavy) await heavySteps.turn();
    const checking = this.validator.validate(tool.definitionHash, tool.inputSchema, args);
    const check = checking instanceof Promise ? await checking : checking;
    if ('unusable' in check) return refuse('rejected', 'TOOL_UNUSABLE', `${tool.qualifiedName} cannot be called: ${check.unusable}.`);
    if (check.problems.length > 0) {
      return refuse('invalid_arguments', 'INVALID_ARGUMENTS', `The arguments do not match the input schema of ${tool.qualifiedName}.`, false, check.problems);
    }
    call.arguments = args;
    return undefined;
  }
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_ARGUMENT_DEPTH) return depth;
  if (value === null || typeof value !== 'object') return depth;
  let max = depth + 1;
  for (const inner of Object.values(value)) max = Math.max(max, depthOf(inner, depth + 1));
  return max;
}

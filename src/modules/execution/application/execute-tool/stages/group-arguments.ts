import { Injectable } from '@nestjs/common';
import { withGroupArguments } from '../../../../groups/domain/group-arguments.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

/**
 * A call through a group gets the group's arguments for the tool: its locked values, which the
 * caller may not give (ARGUMENT_LOCKED, `invalid_arguments`, 400, naming each argument and the
 * group), and its defaults for those the caller left out. Sets `call.given`, which
 * prepare-arguments then checks against the tool's own inputSchema like any call's arguments.
 * Calls not through a group, and arguments that are not an object (prepare-arguments' to refuse), pass.
 */
@Injectable()
export class GroupArgumentsStage {
  run(call: Call): StageVerdict {
    const served = call.served;
    if (!served) return undefined;
    const given = call.given ?? {};
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return undefined;
    const applied = withGroupArguments(given as Record<string, unknown>, served);
    if ('arguments' in applied) {
      call.given = applied.arguments;
      return undefined;
    }
    const group = call.input.group!;
    return refuse(
      'invalid_arguments',
      'ARGUMENT_LOCKED',
      `Group "${group}" fixes ${applied.lockedGiven.map((name) => `"${name}"`).join(', ')} of ${served.servedName}: leave ${applied.lockedGiven.length === 1 ? 'it' : 'them'} out.`,
      false,
      applied.lockedGiven.map((name) => ({ path: `arguments.${name}`, message: `is locked by group "${group}"` })),
    );
  }
}

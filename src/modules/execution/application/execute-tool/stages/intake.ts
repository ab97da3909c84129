import { Inject, Injectable } from '@nestjs/common';
import { InFlightCalls } from '../../in-flight-calls.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

/**
 * Refuses a call that cannot be taken at all, first reason first: the request itself is malformed
 * (VALIDATION_FAILED, e.g. a bad timeoutMs), Toolplane is shutting down (SHUTTING_DOWN), the group
 * it is called through does not exist (GROUP_NOT_FOUND), or the tool does not (TOOL_NOT_FOUND; in a
 * group, none it serves under that name).
 */
@Injectable()
export class IntakeStage {
  constructor(@Inject(InFlightCalls) private readonly inFlight: InFlightCalls) {}

  run(call: Call): StageVerdict {
    const { shapeProblems, qualifiedName, group } = call.input;
    if (shapeProblems && shapeProblems.length > 0) return refuse('invalid_arguments', 'VALIDATION_FAILED', 'The invocation request is invalid.', false, shapeProblems);
    if (this.inFlight.draining) return refuse('rejected', 'SHUTTING_DOWN', 'Toolplane is shutting down.', true);
    if (group !== undefined && !call.groupView) return refuse('rejected', 'GROUP_NOT_FOUND', `No group named "${group.slice(0, 100)}".`);
    if (!call.route) return group === undefined ? unknownTool(qualifiedName) : refuse('rejected', 'TOOL_NOT_FOUND', `No tool named "${qualifiedName.slice(0, 100)}" in group "${group.slice(0, 100)}".`);
    return undefined;
  }
}

/** The refusal of a name that leads to no tool (none by that name, or its source is gone). */
export function unknownTool(qualifiedName: string): StageVerdict {
  return refuse('rejected', 'TOOL_NOT_FOUND', `No tool named "${qualifiedName.slice(0, 100)}".`);
}

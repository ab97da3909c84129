import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { GroupSpecInput } from '../../domain/group-spec.js';
import type { GroupView } from '../group-view.js';

/** Replaces the fields given (a list or the overrides as a whole); the name stays. */
export class UpdateGroupCommand extends Command<GroupView> {
  constructor(
    readonly name: string,
    readonly input: GroupSpecInput,
    readonly actor: string,
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {
    super();
  }
}

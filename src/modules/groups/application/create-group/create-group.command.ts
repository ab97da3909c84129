import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { GroupSpecInput } from '../../domain/group-spec.js';
import type { GroupView } from '../group-view.js';

export class CreateGroupCommand extends Command<GroupView> {
  constructor(
    readonly input: GroupSpecInput,
    readonly actor: string,
    /** Problems the request's shape check found already (unknown fields). */
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {
    super();
  }
}

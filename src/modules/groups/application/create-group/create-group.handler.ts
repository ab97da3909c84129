import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import type { GroupSpec } from '../../domain/group.js';
import { checkGroupSpec } from '../../domain/group-spec.js';
import { GroupWrites } from '../group-writes.js';
import { viewOf, type GroupView } from '../group-view.js';
import { CreateGroupCommand } from './create-group.command.js';

@CommandHandler(CreateGroupCommand)
export class CreateGroupHandler implements ICommandHandler<CreateGroupCommand, GroupView> {
  constructor(@Inject(GroupWrites) private readonly writes: GroupWrites) {}

  async execute({ input, actor, shapeProblems }: CreateGroupCommand): Promise<GroupView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const spec = checkGroupSpec(input, problems) as GroupSpec;
    problems.throwIfAny('The group is invalid.');
    return viewOf(await this.writes.create(spec, actor));
  }
}

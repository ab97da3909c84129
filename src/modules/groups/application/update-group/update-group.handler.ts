import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import type { GroupSpec } from '../../domain/group.js';
import { checkGroupSpec } from '../../domain/group-spec.js';
import { GroupWrites } from '../group-writes.js';
import { viewOf, type GroupView } from '../group-view.js';
import { UpdateGroupCommand } from './update-group.command.js';

@CommandHandler(UpdateGroupCommand)
export class UpdateGroupHandler implements ICommandHandler<UpdateGroupCommand, GroupView> {
  constructor(@Inject(GroupWrites) private readonly writes: GroupWrites) {}

  async execute({ name, input, actor, shapeProblems }: UpdateGroupCommand): Promise<GroupView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const { name: renamed, ...given } = input;
    if (renamed !== undefined && renamed !== name) problems.add('name', 'cannot be changed: a group is served under its name (create another group instead)');
    const changes = checkGroupSpec(given, problems, true) as Partial<GroupSpec>;
    problems.throwIfAny('The group change is invalid.');
    return viewOf(await this.writes.update(name, actor, (group) => ({ ...group, ...changes })));
  }
}

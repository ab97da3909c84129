import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { GroupWrites } from '../group-writes.js';
import { viewOf, type GroupView } from '../group-view.js';
import { DeleteGroupCommand } from './delete-group.command.js';

@CommandHandler(DeleteGroupCommand)
export class DeleteGroupHandler implements ICommandHandler<DeleteGroupCommand, GroupView> {
  constructor(@Inject(GroupWrites) private readonly writes: GroupWrites) {}

  async execute({ name, actor }: DeleteGroupCommand): Promise<GroupView> {
    return viewOf(await this.writes.remove(name, actor));
  }
}

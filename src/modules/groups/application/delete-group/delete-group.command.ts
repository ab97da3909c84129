import { Command } from '@nestjs/cqrs';
import type { GroupView } from '../group-view.js';

/** Removes a group: its endpoint and catalog view are gone; executions keep its name. */
export class DeleteGroupCommand extends Command<GroupView> {
  constructor(
    readonly name: string,
    readonly actor: string,
  ) {
    super();
  }
}

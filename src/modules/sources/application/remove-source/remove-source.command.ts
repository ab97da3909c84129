import { Command } from '@nestjs/cqrs';

export class RemoveSourceCommand extends Command<void> {
  constructor(
    readonly idOrName: string,
    readonly actor: string,
  ) {
    super();
  }
}

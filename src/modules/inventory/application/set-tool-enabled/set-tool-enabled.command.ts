import { Command } from '@nestjs/cqrs';

/** EnableTool / DisableTool. */
export class SetToolEnabledCommand extends Command<void> {
  constructor(
    readonly qualifiedName: string,
    readonly enabled: boolean,
    readonly actor: string,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';

export class DeleteSecretCommand extends Command<void> {
  constructor(
    readonly name: string,
    readonly actor: string,
  ) {
    super();
  }
}

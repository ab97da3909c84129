import { Command } from '@nestjs/cqrs';

/** A principal deletes one of its own secrets. */
export class DeleteUserSecretCommand extends Command<void> {
  constructor(
    readonly principalId: string,
    readonly name: string,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';

/** Ends a principal's connection to a source (its own, or any for an administrator): deleted, and revoked upstream. */
export class RevokeConnectionCommand extends Command<void> {
  constructor(
    readonly sourceName: string,
    readonly principalId: string,
    readonly actor: string,
  ) {
    super();
  }
}

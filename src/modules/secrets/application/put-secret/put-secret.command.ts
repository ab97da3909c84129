import { Command } from '@nestjs/cqrs';
import type { SecretMetadata } from '../../domain/secret.js';

export class PutSecretCommand extends Command<SecretMetadata & { created: boolean }> {
  constructor(
    readonly name: string,
    readonly value: string,
    readonly actor: string,
  ) {
    super();
  }
}

import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { SecretMetadata } from '../../domain/secret.js';

/** A principal stores (or replaces) one of its own secrets. */
export class PutUserSecretCommand extends Command<SecretMetadata & { created: boolean }> {
  constructor(
    readonly principalId: string,
    readonly name: string,
    readonly value: unknown,
    /** Problems of the body's shape the interface found, reported with the rest. */
    readonly shapeProblems: ProblemDetail[] = [],
  ) {
    super();
  }
}

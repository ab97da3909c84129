import { Command } from '@nestjs/cqrs';
import type { DiscoveryPrincipal } from '../../domain/upstream-auth.js';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { SourceChangesInput } from '../source-spec.js';

export class UpdateSourceCommand extends Command<{ id: string }> {
  constructor(
    readonly idOrName: string,
    readonly changes: SourceChangesInput,
    readonly shapeProblems: ProblemDetail[],
    readonly actor: string,
    readonly waitForDiscovery: boolean,
    /** Who asked, by id and name: the discovery principal of a per-user source (absent: the actor, by id). */
    readonly principal?: DiscoveryPrincipal,
  ) {
    super();
  }
}

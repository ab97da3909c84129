import { Command } from '@nestjs/cqrs';
import type { DiscoveryPrincipal } from '../../domain/upstream-auth.js';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { SourceSpecInput } from '../source-spec.js';

export class RegisterSourceCommand extends Command<{ id: string }> {
  constructor(
    readonly spec: SourceSpecInput,
    /** Shape problems already found by the interface layer, reported with the rest. */
    readonly shapeProblems: ProblemDetail[],
    readonly actor: string,
    /** Wait (bounded) for the first discovery before answering. */
    readonly waitForDiscovery: boolean,
    /** Who asked, by id and name: the discovery principal of a per-user source (absent: the actor, by id). */
    readonly principal?: DiscoveryPrincipal,
    /** That principal's own bearer token, for the first discovery of a token-exchange source. */
    readonly callerToken?: string,
  ) {
    super();
  }
}

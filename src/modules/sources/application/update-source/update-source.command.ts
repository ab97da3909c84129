import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { SourceChangesInput } from '../source-spec.js';

export class UpdateSourceCommand extends Command<{ id: string }> {
  constructor(
    readonly idOrName: string,
    readonly changes: SourceChangesInput,
    readonly shapeProblems: ProblemDetail[],
    readonly actor: string,
    readonly waitForDiscovery: boolean,
  ) {
    super();
  }
}

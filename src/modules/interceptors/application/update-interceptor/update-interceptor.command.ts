import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { InterceptorSpecInput } from '../../domain/interceptor-spec.js';
import type { InterceptorView } from '../interceptor-view.js';

/**
 * Changes the fields given (each as a whole; null puts one back to its default), optionally only
 * at the `version` the caller read; the name stays.
 */
export class UpdateInterceptorCommand extends Command<InterceptorView> {
  constructor(
    readonly name: string,
    readonly input: InterceptorSpecInput,
    readonly actor: string,
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {
    super();
  }
}

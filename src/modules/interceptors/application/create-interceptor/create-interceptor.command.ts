import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { InterceptorSpecInput } from '../../domain/interceptor-spec.js';
import type { InterceptorView } from '../interceptor-view.js';

/** Creates an interceptor from its flat form; it is in force once the command answers. */
export class CreateInterceptorCommand extends Command<InterceptorView> {
  constructor(
    readonly input: InterceptorSpecInput,
    readonly actor: string,
    /** Problems the request's shape check found already (a body that is not an object). */
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {
    super();
  }
}

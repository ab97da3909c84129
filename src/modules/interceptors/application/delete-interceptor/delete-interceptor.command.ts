import { Command } from '@nestjs/cqrs';
import type { InterceptorView } from '../interceptor-view.js';

/** Removes an interceptor: no call runs it once the command answers; executions keep what it did. */
export class DeleteInterceptorCommand extends Command<InterceptorView> {
  constructor(
    readonly name: string,
    readonly actor: string,
  ) {
    super();
  }
}

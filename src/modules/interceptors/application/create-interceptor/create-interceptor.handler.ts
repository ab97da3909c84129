import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import { InterceptorSpecChecker } from '../interceptor-spec-checker.js';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { InterceptorWrites } from '../interceptor-writes.js';
import { CreateInterceptorCommand } from './create-interceptor.command.js';

@CommandHandler(CreateInterceptorCommand)
export class CreateInterceptorHandler implements ICommandHandler<CreateInterceptorCommand, InterceptorView> {
  constructor(
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
    @Inject(InterceptorWrites) private readonly writes: InterceptorWrites,
  ) {}

  async execute({ input, actor, shapeProblems }: CreateInterceptorCommand): Promise<InterceptorView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const spec = shapeProblems.length > 0 ? undefined : await this.checker.check(input, problems);
    problems.throwIfAny('The interceptor is invalid.');
    return viewOf(await this.writes.create(spec!, actor));
  }
}

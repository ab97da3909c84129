import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import { checkInterceptorSpec, mergeInterceptorChange } from '../../domain/interceptor-spec.js';
import { staleInterceptorVersion } from '../interceptor-errors.js';
import { InterceptorSpecChecker } from '../interceptor-spec-checker.js';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { InterceptorWrites } from '../interceptor-writes.js';
import { UpdateInterceptorCommand } from './update-interceptor.command.js';

@CommandHandler(UpdateInterceptorCommand)
export class UpdateInterceptorHandler implements ICommandHandler<UpdateInterceptorCommand, InterceptorView> {
  constructor(
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
    @Inject(InterceptorWrites) private readonly writes: InterceptorWrites,
  ) {}

  async execute({ name, input, actor, shapeProblems }: UpdateInterceptorCommand): Promise<InterceptorView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const { name: renamed, version: expected, ...given } = input;
    if (renamed !== undefined && renamed !== null && renamed !== name) problems.add('name', 'cannot be changed: create another interceptor and remove this one instead');
    if (expected !== undefined && (!Number.isInteger(expected) || (expected as number) < 1)) problems.add('version', 'must be the version you read (a positive integer)');
    // What the change is wrong in by itself, before anything is read; the whole is checked over the stored interceptor.
    checkInterceptorSpec(given, problems, true);
    problems.throwIfAny('The interceptor change is invalid.');
    const updated = await this.writes.update(name, actor, async (current) => {
      if (expected !== undefined && expected !== current.version) throw staleInterceptorVersion(name);
      const whole = new ProblemList();
      const spec = await this.checker.check(mergeInterceptorChange(current, given), whole);
      whole.throwIfAny('The interceptor change is invalid.');
      return spec!;
    });
    return viewOf(updated);
  }
}

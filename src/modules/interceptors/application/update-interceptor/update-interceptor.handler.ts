import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, InterceptorsChanged } from '../../../../shared/catalog-events.js';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { InterceptorRepository, type Interceptor } from '../../domain/interceptor.js';
import { checkInterceptorSpec, flatInterceptor, mergeInterceptorChange } from '../../domain/interceptor-spec.js';
import { InterceptorDefinitions } from '../interceptor-definitions.js';
import { interceptorNotFound, staleInterceptorVersion } from '../interceptor-errors.js';
import { InterceptorSpecChecker } from '../interceptor-spec-checker.js';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { UpdateInterceptorCommand } from './update-interceptor.command.js';

@CommandHandler(UpdateInterceptorCommand)
export class UpdateInterceptorHandler implements ICommandHandler<UpdateInterceptorCommand, InterceptorView> {
  constructor(
    @Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository,
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
    @Inject(InterceptorDefinitions) private readonly definitions: InterceptorDefinitions,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
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
    const result = await this.uow.run(async () => {
      const current = await this.interceptors.findByName(name, { lock: true });
      if (!current) throw interceptorNotFound(name);
      if (expected !== undefined && expected !== current.version) throw staleInterceptorVersion(name);
      const whole = new ProblemList();
      const spec = await this.checker.check(mergeInterceptorChange(current, given), whole);
      whole.throwIfAny('The interceptor change is invalid.');
      const was = flatInterceptor(current);
      const is = flatInterceptor(spec!);
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
        if (canonicalJson(was[field] ?? null) === canonicalJson(is[field] ?? null)) continue;
        before[field] = was[field] ?? null;
        after[field] = is[field] ?? null;
      }
      if (Object.keys(after).length === 0) return { interceptor: current, changed: false };
      const updated: Interceptor = { ...current, ...spec!, updatedAt: this.clock.now(), updatedBy: actor, version: current.version + 1 };
      await this.interceptors.update(updated);
      await this.audit.record({ actor, action: 'interceptor.updated', targetType: 'interceptor', targetId: current.id, targetName: current.name, details: { before, after } });
      await this.notifier.notifyInterceptorChanged(current.name);
      return { interceptor: updated, changed: true };
    });
    if (result.changed) {
      this.events.publish(new InterceptorsChanged(name));
      await this.definitions.settled();
    }
    return viewOf(result.interceptor);
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, InterceptorsChanged } from '../../../../shared/catalog-events.js';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { InterceptorRepository, type Interceptor } from '../../domain/interceptor.js';
import { flatInterceptor } from '../../domain/interceptor-spec.js';
import { InterceptorDefinitions } from '../interceptor-definitions.js';
import { interceptorExists } from '../interceptor-errors.js';
import { InterceptorSpecChecker } from '../interceptor-spec-checker.js';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { CreateInterceptorCommand } from './create-interceptor.command.js';

@CommandHandler(CreateInterceptorCommand)
export class CreateInterceptorHandler implements ICommandHandler<CreateInterceptorCommand, InterceptorView> {
  constructor(
    @Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository,
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
    @Inject(InterceptorDefinitions) private readonly definitions: InterceptorDefinitions,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ input, actor, shapeProblems }: CreateInterceptorCommand): Promise<InterceptorView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const spec = shapeProblems.length > 0 ? undefined : await this.checker.check(input, problems);
    problems.throwIfAny('The interceptor is invalid.');
    const now = this.clock.now();
    const interceptor: Interceptor = { id: this.ids.next(), ...spec!, createdAt: now, updatedAt: now, createdBy: actor, updatedBy: actor, version: 1 };
    await this.uow.run(async () => {
      if (await this.interceptors.findByName(interceptor.name, { lock: true })) throw interceptorExists(interceptor.name);
      await this.interceptors.insert(interceptor);
      await this.audit.record({
        actor,
        action: 'interceptor.created',
        targetType: 'interceptor',
        targetId: interceptor.id,
        targetName: interceptor.name,
        details: flatInterceptor(interceptor),
      });
      await this.notifier.notifyInterceptorChanged(interceptor.name);
    });
    this.events.publish(new InterceptorsChanged(interceptor.name));
    await this.definitions.settled();
    return viewOf(interceptor);
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, InterceptorsChanged } from '../../../../shared/catalog-events.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { InterceptorRepository } from '../../domain/interceptor.js';
import { InterceptorDefinitions } from '../interceptor-definitions.js';
import { interceptorNotFound } from '../interceptor-errors.js';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { DeleteInterceptorCommand } from './delete-interceptor.command.js';

@CommandHandler(DeleteInterceptorCommand)
export class DeleteInterceptorHandler implements ICommandHandler<DeleteInterceptorCommand, InterceptorView> {
  constructor(
    @Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository,
    @Inject(InterceptorDefinitions) private readonly definitions: InterceptorDefinitions,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ name, actor }: DeleteInterceptorCommand): Promise<InterceptorView> {
    const interceptor = await this.uow.run(async () => {
      const found = await this.interceptors.findByName(name, { lock: true });
      if (!found) throw interceptorNotFound(name);
      await this.interceptors.delete(found.id);
      await this.audit.record({ actor, action: 'interceptor.removed', targetType: 'interceptor', targetId: found.id, targetName: found.name, details: {} });
      await this.notifier.notifyInterceptorChanged(found.name);
      return found;
    });
    this.events.publish(new InterceptorsChanged(name));
    await this.definitions.settled();
    return viewOf(interceptor);
  }
}

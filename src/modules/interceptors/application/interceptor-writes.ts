import { Inject, Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { CatalogChangeNotifier, InterceptorsChanged } from '../../../shared/catalog-events.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../shared/unit-of-work.js';
import { NamedResourceWrites } from '../../audit/application/named-resource-writes.js';
import { AuditLog } from '../../audit/domain/audit-event.js';
import { InterceptorRepository, type InterceptorSpec } from '../domain/interceptor.js';
import { flatInterceptor } from '../domain/interceptor-spec.js';
import { InterceptorDefinitions } from './interceptor-definitions.js';
import { interceptorExists, interceptorNotFound } from './interceptor-errors.js';

/** The audited writes of interceptors: each change is in force in this process when the write answers. */
@Injectable()
export class InterceptorWrites extends NamedResourceWrites<InterceptorSpec> {
  constructor(
    @Inject(InterceptorRepository) interceptors: InterceptorRepository,
    @Inject(InterceptorDefinitions) definitions: InterceptorDefinitions,
    @Inject(AuditLog) audit: AuditLog,
    @Inject(UnitOfWork) uow: UnitOfWork,
    @Inject(Clock) clock: Clock,
    @Inject(IdGenerator) ids: IdGenerator,
    @Inject(EventBus) events: EventBus,
    @Inject(CatalogChangeNotifier) notifier: CatalogChangeNotifier,
  ) {
    const kind = {
      noun: 'interceptor',
      notFound: interceptorNotFound,
      taken: interceptorExists,
      auditForm: flatInterceptor,
      announce: (name: string) => notifier.notifyInterceptorChanged(name),
      changed: async (name: string) => {
        events.publish(new InterceptorsChanged(name));
        await definitions.settled();
      },
    } as const;
    super(kind, interceptors, audit, uow, clock, ids);
  }
}

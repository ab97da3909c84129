import { Inject, Injectable } from '@nestjs/common';
import { InterceptorsChanged } from '../../../shared/catalog-events.js';
import { NamedResourceWrites, NamedResourceWriting } from '../../audit/application/named-resource-writes.js';
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
    @Inject(NamedResourceWriting) writing: NamedResourceWriting,
  ) {
    super(
      {
        noun: 'interceptor',
        notFound: interceptorNotFound,
        taken: interceptorExists,
        auditForm: flatInterceptor,
        announce: (name: string) => writing.notifier.notifyInterceptorChanged(name),
        changed: async (name: string) => {
          writing.events.publish(new InterceptorsChanged(name));
          await definitions.settled();
        },
      },
      interceptors,
      writing,
    );
  }
}

import { Module } from '@nestjs/common';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { SourcesModule } from '../sources/sources.module.js';
import { CreateInterceptorHandler } from './application/create-interceptor/create-interceptor.handler.js';
import { DeleteInterceptorHandler } from './application/delete-interceptor/delete-interceptor.handler.js';
import { GetInterceptorHandler } from './application/get-interceptor/get-interceptor.handler.js';
import { InterceptorDefinitions } from './application/interceptor-definitions.js';
import { InterceptorSpecChecker } from './application/interceptor-spec-checker.js';
import { ListInterceptorsHandler } from './application/list-interceptors/list-interceptors.handler.js';
import { UpdateInterceptorHandler } from './application/update-interceptor/update-interceptor.handler.js';
import { InterceptorRepository, InterceptorsInForce } from './domain/interceptor.js';
import { InterceptorOrmEntity } from './infrastructure/interceptor.orm-entity.js';
import { TypeormInterceptorRepository } from './infrastructure/typeorm-interceptor.repository.js';
import { InterceptorsController } from './interface/interceptors.controller.js';

/**
 * Interceptors: their definitions (`/api/v1/interceptors`), checked by InterceptorSpecChecker and
 * held in memory by InterceptorDefinitions, which is the InterceptorsInForce the call pipeline reads.
 */
@Module({
  imports: [AuditModule, SecretsModule, SourcesModule],
  controllers: [InterceptorsController],
  providers: [
    { provide: InterceptorRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormInterceptorRepository(uow), inject: [TypeormUnitOfWork] },
    InterceptorDefinitions,
    { provide: InterceptorsInForce, useExisting: InterceptorDefinitions },
    InterceptorSpecChecker,
    CreateInterceptorHandler,
    UpdateInterceptorHandler,
    DeleteInterceptorHandler,
    GetInterceptorHandler,
    ListInterceptorsHandler,
  ],
  exports: [InterceptorDefinitions, InterceptorsInForce, InterceptorRepository, InterceptorSpecChecker],
})
export class InterceptorsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [InterceptorOrmEntity];
}

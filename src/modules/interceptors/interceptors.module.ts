import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { SourcesModule } from '../sources/sources.module.js';
import { CreateInterceptorHandler } from './application/create-interceptor/create-interceptor.handler.js';
import { DeleteInterceptorHandler } from './application/delete-interceptor/delete-interceptor.handler.js';
import { GetInterceptorHandler } from './application/get-interceptor/get-interceptor.handler.js';
import { InterceptorChain, INTERCEPTOR_ENGINES } from './application/interceptor-chain.js';
import { InterceptorDefinitions } from './application/interceptor-definitions.js';
import { InterceptorSpecChecker } from './application/interceptor-spec-checker.js';
import { ListInterceptorsHandler } from './application/list-interceptors/list-interceptors.handler.js';
import { UpdateInterceptorHandler } from './application/update-interceptor/update-interceptor.handler.js';
import { builtinEngines } from './domain/engines/builtin-engines.js';
import type { InterceptorEngine } from './domain/intercepted-call.js';
import { InterceptorRepository, InterceptorsInForce } from './domain/interceptor.js';
import { AjvSchemaChecks } from './infrastructure/ajv-schema-checks.js';
import { InterceptorOrmEntity } from './infrastructure/interceptor.orm-entity.js';
import { TypeormInterceptorRepository } from './infrastructure/typeorm-interceptor.repository.js';
import { WebhookEngine } from './infrastructure/webhook-engine.js';
import { InterceptorsController } from './interface/interceptors.controller.js';

/**
 * Interceptors: their definitions (`/api/v1/interceptors`), checked by InterceptorSpecChecker and
 * held in memory by InterceptorDefinitions (the InterceptorsInForce), and the chain that picks and
 * runs those in force on a call with each kind's engine; ExecuteTool reaches the chain through its
 * CallInterceptors seam (see ExecutionModule).
 */
@Module({
  imports: [AuditModule, SecretsModule, SourcesModule],
  controllers: [InterceptorsController],
  providers: [
    { provide: InterceptorRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormInterceptorRepository(uow), inject: [TypeormUnitOfWork] },
    InterceptorDefinitions,
    { provide: InterceptorsInForce, useExisting: InterceptorDefinitions },
    InterceptorSpecChecker,
    WebhookEngine,
    {
      provide: INTERCEPTOR_ENGINES,
      useFactory: (config: AppConfig, webhook: WebhookEngine): InterceptorEngine[] => [
        ...Object.values(builtinEngines({ schemaChecks: new AjvSchemaChecks(config.schemaLimits) })),
        webhook,
      ],
      inject: [APP_CONFIG, WebhookEngine],
    },
    InterceptorChain,
    CreateInterceptorHandler,
    UpdateInterceptorHandler,
    DeleteInterceptorHandler,
    GetInterceptorHandler,
    ListInterceptorsHandler,
  ],
  exports: [InterceptorDefinitions, InterceptorsInForce, InterceptorRepository, InterceptorSpecChecker, InterceptorChain, INTERCEPTOR_ENGINES],
})
export class InterceptorsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [InterceptorOrmEntity];
}

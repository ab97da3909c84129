import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { SourcesModule } from '../sources/sources.module.js';
import { CreateInterceptorHandler } from './application/create-interceptor/create-interceptor.handler.js';
import { DeleteInterceptorHandler } from './application/delete-interceptor/delete-interceptor.handler.js';
import { GetInterceptorHandler } from './application/get-interceptor/get-interceptor.handler.js';
import { INTERCEPTOR_ENGINES, InterceptorChain } from './application/interceptor-chain.js';
import { InterceptorDefinitions } from './application/interceptor-definitions.js';
import { InterceptorSpecChecker } from './application/interceptor-spec-checker.js';
import { NamedResourceWriting } from '../audit/application/named-resource-writes.js';
import { InterceptorWrites } from './application/interceptor-writes.js';
import { ListInterceptorsHandler } from './application/list-interceptors/list-interceptors.handler.js';
import { PreviewInterceptorHandler } from './application/preview-interceptor/preview-interceptor.handler.js';
import { UpdateInterceptorHandler } from './application/update-interceptor/update-interceptor.handler.js';
import { builtinEngines } from './domain/engines/builtin-engines.js';
import { InterceptorRepository, InterceptorsInForce } from './domain/interceptor.js';
import { SchemaChecks } from './domain/schema-checks.port.js';
import { AjvSchemaChecks } from './infrastructure/ajv-schema-checks.js';
import { WebhookEngine } from './infrastructure/webhook-engine.js';
import { InterceptorOrmEntity } from './infrastructure/interceptor.orm-entity.js';
import { TypeormInterceptorRepository } from './infrastructure/typeorm-interceptor.repository.js';
import { InterceptorPreviewController } from './interface/interceptor-preview.controller.js';
import { InterceptorsController } from './interface/interceptors.controller.js';

/**
 * Interceptors: their definitions (`/api/v1/interceptors`), checked by InterceptorSpecChecker and
 * held in memory by InterceptorDefinitions, which is the InterceptorsInForce the call pipeline reads;
 * the chain picks and runs those in force on a call, and ExecuteTool reaches it through its
 * CallInterceptors seam (see ExecutionModule). Previews (`POST /api/v1/interceptors/preview`) run
 * one interceptor not saved through the same engines.
 */
@Module({
  imports: [AuditModule, InventoryModule, SecretsModule, SourcesModule],
  controllers: [InterceptorsController, InterceptorPreviewController],
  providers: [
    { provide: InterceptorRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormInterceptorRepository(uow), inject: [TypeormUnitOfWork] },
    InterceptorDefinitions,
    { provide: InterceptorsInForce, useExisting: InterceptorDefinitions },
    InterceptorSpecChecker,
    NamedResourceWriting,
    InterceptorWrites,
    CreateInterceptorHandler,
    UpdateInterceptorHandler,
    DeleteInterceptorHandler,
    GetInterceptorHandler,
    ListInterceptorsHandler,
    // Schemas checked as upstreams' input schemas are: output-schema's, and a preview's sample arguments.
    { provide: SchemaChecks, useFactory: (config: AppConfig) => new AjvSchemaChecks(config.schemaLimits), inject: [APP_CONFIG] },
    // The engines that run interceptors, one per kind: the built-in ones and the webhook's.
    WebhookEngine,
    {
      provide: INTERCEPTOR_ENGINES,
      useFactory: (schemaChecks: SchemaChecks, webhook: WebhookEngine) => [...Object.values(builtinEngines({ schemaChecks })), webhook],
      inject: [SchemaChecks, WebhookEngine],
    },
    InterceptorChain,
    PreviewInterceptorHandler,
  ],
  exports: [InterceptorDefinitions, InterceptorsInForce, InterceptorRepository, InterceptorSpecChecker, InterceptorChain],
})
export class InterceptorsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [InterceptorOrmEntity];
}

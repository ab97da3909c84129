import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { SourcesModule } from '../sources/sources.module.js';
import { Bulkheads } from './application/bulkheads.js';
import { RateLimits } from './application/rate-limits.js';
import { ExecuteToolHandler } from './application/execute-tool/execute-tool.handler.js';
import { InFlightCalls } from './application/in-flight-calls.js';
import { RouteCache } from './application/route-cache.js';
import { ToolRouteReader } from './application/tool-route.js';
import { ArgumentValidator } from './domain/argument-validator.port.js';
import { AjvArgumentValidator } from './infrastructure/ajv-argument-validator.js';
import { SqlToolRouteReader } from './infrastructure/sql-tool-route-reader.js';
import { InvokeController } from './interface/invoke.controller.js';

@Module({
  imports: [SourcesModule, AuditModule],
  controllers: [InvokeController],
  providers: [
    { provide: ToolRouteReader, useFactory: (uow: TypeormUnitOfWork) => new SqlToolRouteReader(uow), inject: [TypeormUnitOfWork] },
    { provide: ArgumentValidator, useFactory: (config: AppConfig) => new AjvArgumentValidator(config.schemaLimits), inject: [APP_CONFIG] },
    RouteCache,
    Bulkheads,
    RateLimits,
    InFlightCalls,
    ExecuteToolHandler,
  ],
  exports: [InFlightCalls],
})
export class ExecutionModule {}

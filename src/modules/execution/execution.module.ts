import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DATABASE } from '../../shared/database/database.js';
import type { Database } from '../../shared/database/database.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { ExecutionsModule } from '../executions/executions.module.js';
import { InterceptorChain } from '../interceptors/application/interceptor-chain.js';
import { InterceptorsModule } from '../interceptors/interceptors.module.js';
import { SourcesModule } from '../sources/sources.module.js';
import { Bulkheads } from './application/bulkheads.js';
import { RateLimits } from './application/rate-limits.js';
import { ExecuteToolHandler } from './application/execute-tool/execute-tool.handler.js';
import { AdmitStage } from './application/execute-tool/stages/admit.js';
import { CallInterceptors } from './application/execute-tool/stages/call-stage.js';
import { InterceptArgumentsStage } from './application/execute-tool/stages/intercept-arguments.js';
import { InterceptResultStage } from './application/execute-tool/stages/intercept-result.js';
import { GuardStage } from './application/execute-tool/stages/guard.js';
import { GroupArgumentsStage } from './application/execute-tool/stages/group-arguments.js';
import { IntakeStage } from './application/execute-tool/stages/intake.js';
import { InvokeStage } from './application/execute-tool/stages/invoke.js';
import { LocateUpstreamStage } from './application/execute-tool/stages/locate-upstream.js';
import { AttachCredentialStage } from './application/execute-tool/stages/attach-credential.js';
import { PrepareArgumentsStage } from './application/execute-tool/stages/prepare-arguments.js';
import { RecordOutcomeStage } from './application/execute-tool/stages/record-outcome.js';
import { RecordStartStage } from './application/execute-tool/stages/record-start.js';
import { ReportStage } from './application/execute-tool/stages/report.js';
import { ResolveStage } from './application/execute-tool/stages/resolve.js';
import { ParkStage } from './application/execute-tool/stages/park.js';
import { InFlightCalls } from './application/in-flight-calls.js';
import { CallTasks } from './application/call-tasks.js';
import { RouteCache } from './application/route-cache.js';
import { ArgumentValidator } from './domain/argument-validator.port.js';
import { RateBuckets } from './domain/rate-buckets.port.js';
import { AjvArgumentValidator } from './infrastructure/ajv-argument-validator.js';
import { InProcessRateBuckets } from './infrastructure/in-process-rate-buckets.js';
import { PostgresRateBuckets } from './infrastructure/postgres-rate-buckets.js';
import { InvokeController } from './interface/invoke.controller.js';
import { RunningExecutionsController } from './interface/running-executions.controller.js';

@Module({
  imports: [CatalogModule, SourcesModule, ExecutionsModule, InterceptorsModule],
  controllers: [InvokeController, RunningExecutionsController],
  providers: [
    { provide: ArgumentValidator, useFactory: (config: AppConfig) => new AjvArgumentValidator(config.schemaLimits), inject: [APP_CONFIG] },
    RouteCache,
    Bulkheads,
    // The embedded cluster has one user, this process: its memory holds the buckets. A shared
    // database may have several processes, which must take from the same buckets.
    {
      provide: RateBuckets,
      useFactory: (config: AppConfig, db: Database) => (config.databaseUrl === undefined ? new InProcessRateBuckets() : new PostgresRateBuckets(db.dataSource)),
      inject: [APP_CONFIG, DATABASE],
    },
    RateLimits,
    InFlightCalls,
    // ExecuteTool's stages, in the order it runs them.
    ResolveStage,
    IntakeStage,
    AdmitStage,
    GroupArgumentsStage,
    PrepareArgumentsStage,
    GuardStage,
    LocateUpstreamStage,
    AttachCredentialStage,
    RecordStartStage,
    InvokeStage,
    RecordOutcomeStage,
    ReportStage,
    ParkStage,
    // The configured stages: the interceptors in force, before the guard (pre) and after the upstream answered (post).
    {
      provide: CallInterceptors,
      useFactory: (chain: InterceptorChain, validator: ArgumentValidator): CallInterceptors => ({ pre: [new InterceptArgumentsStage(chain, validator)], post: [new InterceptResultStage(chain)] }),
      inject: [InterceptorChain, ArgumentValidator],
    },
    ExecuteToolHandler,
    CallTasks,
  ],
  exports: [InFlightCalls, RouteCache, CallTasks],
})
export class ExecutionModule {}

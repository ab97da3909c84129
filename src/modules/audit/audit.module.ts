import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DATABASE } from '../../shared/core.module.js';
import type { Database } from '../../shared/database/database.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { Clock, IdGenerator } from '../../shared/unit-of-work.js';
import { ExecutionRecorder } from '../execution/domain/execution.js';
import { ExecutionStatsHandler } from './application/execution-stats/execution-stats.handler.js';
import { GetExecutionHandler } from './application/get-execution/get-execution.handler.js';
import { ListAuditEventsHandler } from './application/list-audit-events/list-audit-events.handler.js';
import { ListExecutionsHandler } from './application/list-executions/list-executions.handler.js';
import { AuditLog } from './domain/audit-event.js';
import { GroupCommitExecutionRecorder } from './infrastructure/group-commit-execution-recorder.js';
import { InterruptedCallSweeper } from './infrastructure/interrupted-call-sweeper.js';
import { TypeormAuditLog } from './infrastructure/typeorm-audit-log.js';
import { AuditEventsController } from './interface/audit-events.controller.js';
import { ExecutionsController } from './interface/executions.controller.js';

@Module({
  controllers: [AuditEventsController, ExecutionsController],
  providers: [
    { provide: AuditLog, useFactory: (uow: TypeormUnitOfWork, clock: Clock, ids: IdGenerator) => new TypeormAuditLog(uow, clock, ids), inject: [TypeormUnitOfWork, Clock, IdGenerator] },
    // Flushes in beforeApplicationShutdown and again (then refuses new records) in onApplicationShutdown,
    // both ahead of CoreModule closing the database.
    { provide: ExecutionRecorder, useFactory: (db: Database) => new GroupCommitExecutionRecorder(db.dataSource), inject: [DATABASE] },
    {
      provide: InterruptedCallSweeper,
      useFactory: (db: Database, config: AppConfig) =>
        new InterruptedCallSweeper(db.dataSource, { soleProcess: config.databaseUrl === undefined, maxCallTimeoutMs: config.maxCallTimeoutMs, intervalMs: 60_000 }),
      inject: [DATABASE, APP_CONFIG],
    },
    ListAuditEventsHandler,
    ListExecutionsHandler,
    GetExecutionHandler,
    ExecutionStatsHandler,
  ],
  exports: [AuditLog, ExecutionRecorder],
})
export class AuditModule {}

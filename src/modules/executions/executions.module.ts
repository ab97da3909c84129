import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { ExecutionOrmEntity } from './infrastructure/execution.orm-entity.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DATABASE } from '../../shared/database/database.js';
import type { Database } from '../../shared/database/database.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { Clock } from '../../shared/unit-of-work.js';
import { WorkMetrics } from '../../shared/work-metrics.js';
import { AuditModule } from '../audit/audit.module.js';
import { AuditSigner } from '../audit/domain/audit-chain.js';
import { AuditLog } from '../audit/domain/audit-event.js';
import { ExecutionReads } from './application/execution-reads.js';
import { ExecutionStatsHandler } from './application/execution-stats/execution-stats.handler.js';
import { GetExecutionHandler } from './application/get-execution/get-execution.handler.js';
import { ListExecutionsHandler } from './application/list-executions/list-executions.handler.js';
import { VerifyExecutionChainHandler } from './application/verify-execution-chain/verify-execution-chain.handler.js';
import { ExecutionRecorder } from './domain/execution.js';
import { ExecutionTasks } from './domain/execution-task.js';
import { ExecutionChainSealer } from './infrastructure/execution-chain-sealer.js';
import { ExecutionPurger } from './infrastructure/execution-purger.js';
import { GroupCommitExecutionRecorder } from './infrastructure/group-commit-execution-recorder.js';
import { InterruptedCallSweeper } from './infrastructure/interrupted-call-sweeper.js';
import { StartedCallJournal } from './infrastructure/started-call-journal.js';
import { TypeormExecutionReads } from './infrastructure/typeorm-execution-reads.js';
import { TypeormExecutionTasks } from './infrastructure/typeorm-execution-tasks.js';
import { ExecutionsController } from './interface/executions.controller.js';

/**
 * The record of every call: the group-commit recorder (and the journal of started calls), the
 * signed hash chain of the history and its sealer, retention, and the history's queries.
 */
@Module({
  imports: [AuditModule],
  controllers: [ExecutionsController],
  providers: [
    // Flushes in beforeApplicationShutdown and again (then refuses new records) in onApplicationShutdown,
    // both ahead of CoreModule closing the database.
    // With the embedded cluster (Toolplane its only user, on the same disk) started calls go to a
    // journal in the data dir; with a shared database, to `started` rows every replica can sweep.
    {
      provide: StartedCallJournal,
      useFactory: (config: AppConfig) => (config.databaseUrl === undefined ? new StartedCallJournal(join(config.dataDir, 'started-calls')) : null),
      inject: [APP_CONFIG],
    },
    {
      provide: ExecutionRecorder,
      useFactory: (db: Database, journal: StartedCallJournal | null, metrics: WorkMetrics, config: AppConfig) =>
        new GroupCommitExecutionRecorder(db.dataSource, {
          journal: journal ?? undefined,
          asyncCommit: config.executionCommit === 'async',
          onCommitted: (rows, seconds) => metrics.recordsCommitted(rows, seconds),
        }),
      inject: [DATABASE, StartedCallJournal, WorkMetrics, APP_CONFIG],
    },
    {
      provide: InterruptedCallSweeper,
      useFactory: (db: Database, config: AppConfig, journal: StartedCallJournal | null) =>
        new InterruptedCallSweeper(db.dataSource, {
          soleProcess: config.databaseUrl === undefined,
          maxCallTimeoutMs: config.maxCallTimeoutMs,
          intervalMs: 60_000,
          journal: journal ?? undefined,
        }),
      inject: [DATABASE, APP_CONFIG, StartedCallJournal],
    },
    {
      provide: ExecutionChainSealer,
      useFactory: (db: Database, signer: AuditSigner, config: AppConfig) => new ExecutionChainSealer(db.dataSource, signer, { intervalMs: config.executionSealIntervalMs }),
      inject: [DATABASE, AuditSigner, APP_CONFIG],
    },
    // Retention: absent when TOOLPLANE_EXECUTION_RETENTION is off. Finishes its batch at shutdown, ahead of CoreModule closing the database.
    {
      provide: ExecutionPurger,
      useFactory: (db: Database, uow: TypeormUnitOfWork, audit: AuditLog, signer: AuditSigner, metrics: WorkMetrics, clock: Clock, config: AppConfig) =>
        config.executionRetentionMs === null
          ? null
          : new ExecutionPurger(db.dataSource, uow, audit, signer, metrics, clock, {
              retentionMs: config.executionRetentionMs,
              intervalMs: config.executionPurgeIntervalMs,
              batch: config.executionPurgeBatch,
            }),
      inject: [DATABASE, TypeormUnitOfWork, AuditLog, AuditSigner, WorkMetrics, Clock, APP_CONFIG],
    },
    { provide: ExecutionReads, useFactory: (uow: TypeormUnitOfWork) => new TypeormExecutionReads(uow), inject: [TypeormUnitOfWork] },
    { provide: ExecutionTasks, useFactory: (db: Database) => new TypeormExecutionTasks(db.dataSource), inject: [DATABASE] },
    VerifyExecutionChainHandler,
    ListExecutionsHandler,
    GetExecutionHandler,
    ExecutionStatsHandler,
  ],
  exports: [ExecutionRecorder, ExecutionTasks, ExecutionReads],
})
export class ExecutionsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [ExecutionOrmEntity];
}

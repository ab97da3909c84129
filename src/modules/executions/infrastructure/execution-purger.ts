import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import type { Clock } from '../../../shared/unit-of-work.js';
import type { WorkMetrics } from '../../../shared/work-metrics.js';
import { BackgroundPass } from '../../../shared/background-pass.js';
import { formatRetention } from '../../../config/duration.js';
import type { AuditSigner } from '../../audit/domain/audit-chain.js';
import type { AuditLog } from '../../audit/domain/audit-event.js';
import { advanceAnchor, anchorDigest, purgeablePrefix, type PurgeCandidate, type PurgeStop } from '../domain/execution-retention.js';
import { ANCHOR_COLUMNS, toAnchor, type AnchorRow } from './execution-chain-rows.js';

export interface PurgerSettings {
  /** Executions that started longer ago than this are purged (TOOLPLANE_EXECUTION_RETENTION). */
  retentionMs: number;
  /** How often a pass runs (TOOLPLANE_EXECUTION_PURGE_INTERVAL_MS). */
  intervalMs: number;
  /** Executions deleted per transaction at most (TOOLPLANE_EXECUTION_PURGE_BATCH). */
  batch: number;
}

/** What one pass did. */
export interface PurgeReport {
  purged: number;
  batches: number;
  seconds: number;
  /** Why it ended: caught up (`retained`, `none`), a broken chain, stopped for shutdown, or another process purging. */
  stop: PurgeStop | 'stopping' | 'busy';
}

/** The session lock that lets one process of the cluster purge at a time (any 64-bit number of our own). */
const PURGE_LOCK = 7_296_305_112_042;
/** Who the audit trail names for a purge: Toolplane itself, not a principal. */
export const RETENTION_ACTOR = 'toolplane:retention';

interface CandidateRow {
  seq: string;
  execution_id: string;
  prev_hash: string;
  hash: string;
  started_at: Date | null;
}

interface UnrecordedRow {
  unrecorded_from_seq: string | null;
  unrecorded_count: string;
  unrecorded_oldest: Date | null;
  unrecorded_newest: Date | null;
  seq: string;
  hash: string;
  purged_before: Date | null;
}

/**
 * Deletes executions past the retention period, with their payloads (columns of the same row) and
 * their links of the chain, in the background: a pass every interval, in one process of the
 * cluster at a time (a session advisory lock on a connection of its own), in batches of its own
 * short transaction that delete by primary key, resting between batches as long as the batch took,
 * so concurrent calls keep their share of the database. Each batch moves the chain's signed anchor
 * past the links it deleted, so verification starts there; each pass then writes one
 * `executions.purged` audit event with what it deleted (with what an interrupted pass left unreported).
 */
export class ExecutionPurger implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('retention');
  private readonly passes = new BackgroundPass(() => this.pass());
  private wake?: () => void;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: TypeormUnitOfWork,
    private readonly audit: AuditLog,
    private readonly signer: AuditSigner,
    private readonly metrics: WorkMetrics,
    private readonly clock: Clock,
    private readonly settings: PurgerSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.passes.start(this.settings.intervalMs, (error) => this.logger.warn(`purging executions failed: ${String(error)}`));
  }

  /** Lets the batch under way commit and the pass report what it deleted (before the database closes); starts no other. */
  async onModuleDestroy(): Promise<void> {
    await this.passes.stop(() => this.wake?.());
  }

  /** One pass now, or the pass under way. */
  purge(): Promise<PurgeReport> {
    if (this.passes.stopping) return Promise.resolve({ purged: 0, batches: 0, seconds: 0, stop: 'stopping' });
    return this.passes.run();
  }

  private async pass(): Promise<PurgeReport> {
    const started = performance.now();
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      const [{ locked }] = (await lock.query('SELECT pg_try_advisory_lock($1) AS locked', [PURGE_LOCK])) as { locked: boolean }[];
      if (!locked) return { purged: 0, batches: 0, seconds: 0, stop: 'busy' };
      try {
        const report = await this.batches(started);
        await this.recordInAuditTrail();
        this.metrics.purgePassEnded(report.seconds);
        if (report.stop === 'broken') {
          this.logger.warn('the purge stopped at a link of the executions chain that does not follow the one before it or whose record is gone: GET /api/v1/executions/verify names it; nothing after it is purged');
        }
        return report;
      } finally {
        await lock.query('SELECT pg_advisory_unlock($1)', [PURGE_LOCK]).catch(() => undefined);
      }
    } finally {
      await lock.release();
    }
  }

  private async batches(started: number): Promise<PurgeReport> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.retentionMs);
    let purged = 0;
    let batches = 0;
    let stop: PurgeReport['stop'] = 'stopping';
    while (!this.passes.stopping) {
      const batchStarted = performance.now();
      const batch = await this.batch(cutoff);
      const batchSeconds = (performance.now() - batchStarted) / 1000;
      if (batch.purged > 0) {
        purged += batch.purged;
        batches += 1;
        this.metrics.purgeBatchCommitted(batch.purged, batchSeconds);
      }
      if (batch.stop !== 'none' || batch.purged < this.settings.batch) {
        stop = batch.stop;
        break;
      }
      // As long as the batch took: the purge has the database at most half the time.
      await this.rest(Math.max(1, batchSeconds * 1000));
    }
    const seconds = (performance.now() - started) / 1000;
    if (purged > 0) {
      this.logger.log(`purged ${purged} execution(s) that started before ${cutoff.toISOString()} in ${seconds.toFixed(1)} s (${batches} batch(es), ${Math.round(purged / seconds)}/s)`);
    }
    return { purged, batches, seconds, stop };
  }

  /** One transaction: the oldest links (up to a batch) whose executions are past the cutoff, deleted with them; the anchor moved past them. */
  private batch(cutoff: Date): Promise<{ purged: number; stop: PurgeStop }> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(`SELECT ${ANCHOR_COLUMNS} FROM execution_chain_anchor FOR UPDATE`)) as AnchorRow[];
      const anchor = toAnchor(row);
      const rows: CandidateRow[] = await manager.query(
        // A lookup by primary key per link, whatever the planner thinks of the tables' sizes.
        `SELECT c.seq, c.execution_id, c.prev_hash, c.hash, (SELECT e.started_at FROM executions e WHERE e.id = c.execution_id) AS started_at
           FROM execution_chain c
          WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
        [anchor.seq, this.settings.batch],
      );
      const candidates: PurgeCandidate[] = rows.map((r) => ({ seq: Number(r.seq), executionId: r.execution_id, prevHash: r.prev_hash, hash: r.hash, startedAt: r.started_at }));
      const { purge, stop } = purgeablePrefix(anchor, candidates, cutoff);
      if (purge.length === 0) return { purged: 0, stop: stop === 'none' ? 'retained' : stop };
      await manager.query('DELETE FROM executions WHERE id = ANY($1::uuid[])', [purge.map((link) => link.executionId)]);
      await manager.query('DELETE FROM execution_chain WHERE seq > $1 AND seq <= $2', [anchor.seq, purge.at(-1)!.seq]);
      await this.moveAnchor(manager, advanceAnchor(anchor, purge, cutoff), purge);
      return { purged: purge.length, stop };
    });
  }

  private async moveAnchor(manager: EntityManager, next: ReturnType<typeof advanceAnchor>, purged: PurgeCandidate[]): Promise<void> {
    let oldest = Infinity;
    let newest = -Infinity;
    for (const link of purged) {
      oldest = Math.min(oldest, link.startedAt!.getTime());
      newest = Math.max(newest, link.startedAt!.getTime());
    }
    await manager.query(
      `UPDATE execution_chain_anchor
          SET seq = $1, hash = $2, purged_before = $3, purged_count = $4, signature = $5, key_id = $6, updated_at = now(),
              unrecorded_from_seq = COALESCE(unrecorded_from_seq, $7), unrecorded_count = unrecorded_count + $8,
              unrecorded_oldest = LEAST(unrecorded_oldest, $9), unrecorded_newest = GREATEST(unrecorded_newest, $10)`,
      [
        next.seq,
        next.hash,
        next.purgedBefore,
        next.purgedCount,
        this.signer.sign(anchorDigest(next)),
        this.signer.keyId,
        purged[0]!.seq,
        purged.length,
        new Date(oldest),
        new Date(newest),
      ],
    );
  }

  /**
   * One `executions.purged` event for what was deleted since the last one (this pass, and what a
   * pass cut short by a crash left), written through the audit log in the same transaction that
   * clears the count: the trail reports every purged range exactly once.
   */
  private recordInAuditTrail(): Promise<void> {
    return this.uow.run(async () => {
      const manager = this.uow.manager();
      const [row] = (await manager.query(
        `SELECT unrecorded_from_seq, unrecorded_count, unrecorded_oldest, unrecorded_newest, seq, hash, purged_before FROM execution_chain_anchor FOR UPDATE`,
      )) as UnrecordedRow[];
      if (!row || Number(row.unrecorded_count) === 0) return;
      await this.audit.record({
        actor: RETENTION_ACTOR,
        action: 'executions.purged',
        targetType: 'executions',
        targetId: null,
        targetName: null,
        details: {
          count: Number(row.unrecorded_count),
          links: { from: Number(row.unrecorded_from_seq), to: Number(row.seq) },
          startedAt: { oldest: row.unrecorded_oldest?.toISOString() ?? null, newest: row.unrecorded_newest?.toISOString() ?? null },
          purgedBefore: row.purged_before?.toISOString() ?? null,
          retention: formatRetention(this.settings.retentionMs),
          anchor: { seq: Number(row.seq), hash: row.hash },
        },
      });
      await manager.query(`UPDATE execution_chain_anchor SET unrecorded_from_seq = NULL, unrecorded_count = 0, unrecorded_oldest = NULL, unrecorded_newest = NULL`);
    });
  }

  private rest(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => (this.wake = undefined));
  }
}

import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { BackgroundPass } from '../../../shared/background-pass.js';
import type { StartedCallJournal } from './started-call-journal.js';

export interface SweeperSettings {
  /** Only this process uses the database (the embedded cluster): every started call at start is from a stopped run. */
  soleProcess: boolean;
  /** No call lasts longer than this (TOOLPLANE_MAX_CALL_TIMEOUT_MS). */
  maxCallTimeoutMs: number;
  /** How often overdue `started` rows are looked for. */
  intervalMs: number;
  /** Where started calls are written instead of `started` rows (only with soleProcess): its earlier runs' lines are swept at start. */
  journal?: StartedCallJournal;
}

/** Journal lines moved into `execution_starts` per statement. */
const REPLAY_BATCH = 500;

/** Past its deadline by this much, a started call has surely ended without its record. */
const MARGIN_MS = 60_000;

/**
 * Turns started calls (`execution_starts`) that can no longer finish into `interrupted` executions: at start all of
 * them when Toolplane is the database's only user, and, where several processes may share the
 * database, periodically those past the longest possible call (another process may still be
 * running a younger one).
 */
export class InterruptedCallSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('executions');
  private readonly passes = new BackgroundPass(() => this.sweep(this.settings.maxCallTimeoutMs + MARGIN_MS));

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SweeperSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const replayed = await this.replayJournal();
    await this.sweep(this.settings.soleProcess ? 0 : this.settings.maxCallTimeoutMs + MARGIN_MS);
    // Only now are the replayed calls in the history: a crash before this point replays them again.
    for (const file of replayed.files) this.settings.journal?.remove(file);
    this.passes.start(this.settings.intervalMs, (error) => this.logger.warn(`sweeping interrupted calls failed: ${String(error)}`), false);
  }

  /**
   * Moves the calls an earlier run wrote to the journal into `execution_starts` (those whose outcome
   * is in the history are dropped by the sweep), then deletes its files.
   */
  private async replayJournal(): Promise<{ files: string[] }> {
    const journal = this.settings.journal;
    if (!journal) return { files: [] };
    const { entries, files } = journal.earlierEntries();
    for (let start = 0; start < entries.length; start += REPLAY_BATCH) {
      const batch = entries.slice(start, start + REPLAY_BATCH);
      await this.dataSource.query(
        `INSERT INTO execution_starts (id, started_at, record)
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::jsonb[])
         ON CONFLICT (id) DO NOTHING`,
        [batch.map((entry) => entry.id), batch.map((entry) => entry.startedAt), batch.map((entry) => entry.record)],
      );
    }
    return { files };
  }

  onModuleDestroy(): Promise<void> {
    return this.passes.stop();
  }

  /** Turns started calls older than `olderThanMs` into `interrupted` executions; answers how many. */
  async sweep(olderThanMs: number): Promise<number> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH moved AS (
         DELETE FROM execution_starts WHERE started_at < now() - make_interval(secs => $1::double precision / 1000) RETURNING *
       ), inserted AS (
       INSERT INTO executions (id, tool_id, qualified_name, source_id, source_name, definition_hash, caller, caller_principal, channel,
                               arguments, status, is_error, result, error, attempts, started_at, duration_ms, trace_id, group_name, interceptors)
       SELECT id, (record->>'tool_id')::uuid, record->>'qualified_name', (record->>'source_id')::uuid, record->>'source_name',
              record->>'definition_hash', record->'caller', record->>'caller_principal', record->>'channel', record->'arguments',
              'interrupted', false, NULL,
              jsonb_build_object('code', 'INTERRUPTED', 'retryable', false,
                'message', 'Toolplane stopped while the call was under way: it was sent to the upstream, whether it finished there is unknown.'),
              (record->>'attempts')::int, started_at, greatest(0, extract(epoch FROM (now() - started_at)) * 1000), record->>'trace_id', record->>'group_name', record->'interceptors'
         FROM moved
       ON CONFLICT (id) DO NOTHING
       RETURNING id
       )
       -- Each joins the chain's pending list, as every recorded execution does (its digest made by the sealer).
       INSERT INTO execution_chain_pending (execution_id) SELECT id FROM inserted RETURNING execution_id AS id`,
      [olderThanMs],
    );
    if (rows.length > 0) this.logger.warn(`${rows.length} call(s) sent upstream before Toolplane stopped are recorded as interrupted`);
    return rows.length;
  }
}

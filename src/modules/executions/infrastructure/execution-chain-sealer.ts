import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { BackgroundPass } from '../../../shared/background-pass.js';
import { GENESIS_HASH, type AuditSigner } from '../../audit/domain/audit-chain.js';
import { executionLinkHash } from '../domain/execution-chain.js';
import { RECORD_COLUMNS, recordContent, recordDigest, type RecordRow } from './execution-chain-rows.js';

export interface SealerSettings {
  /** How often pending records are linked (TOOLPLANE_EXECUTION_SEAL_INTERVAL_MS). */
  intervalMs: number;
  /** Records linked per pass (one transaction, one signature) at most. */
  batch?: number;
}

/** The advisory lock that lets one process at a time extend the chain (any 64-bit number of our own). */
const SEAL_LOCK = 7_296_305_112_041;
const DEFAULT_BATCH = 1000;

interface PendingRow {
  execution_id: string;
  digest: string | null;
  chained: boolean;
}

/**
 * Links recorded executions into their chain, in the background: each pass takes the oldest
 * pending records (under an advisory lock, so replicas take turns and the chain stays one line),
 * hashes each one's digest after the chain's head, signs the pass's last link, and writes the
 * links and clears the records from the pending list in one transaction. Recording a call only
 * added its id and digest to the pending list; only records pending from before the chain
 * existed (no digest) are read back.
 */
export class ExecutionChainSealer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('executions');
  private readonly passes = new BackgroundPass(() => this.sealAll());
  private readonly batch: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: AuditSigner,
    private readonly settings: SealerSettings,
  ) {
    this.batch = Math.max(1, settings.batch ?? DEFAULT_BATCH);
  }

  onApplicationBootstrap(): void {
    this.passes.start(this.settings.intervalMs, (error) => this.logger.warn(`sealing execution records failed: ${String(error)}`));
  }

  /** Lets a pass under way finish (before the database closes) and starts no other: what is pending waits for the next start. */
  async onModuleDestroy(): Promise<void> {
    await this.passes.stop();
  }

  /**
   * Links the records pending now (a pass at a time, other work between passes); answers how many.
   * It goes on only while passes come back full: records that arrive meanwhile wait for the next
   * interval, so that under load a pass carries many records rather than a few. One run at a time.
   */
  sealPending(): Promise<number> {
    return this.passes.run();
  }

  private async sealAll(): Promise<number> {
    let total = 0;
    while (!this.passes.stopping) {
      const pass = await this.pass();
      if (pass === undefined) return total;
      total += pass.linked;
      if (pass.taken < this.batch) return total;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }

  /**
   * One transaction: the links of up to `batch` records (`taken` off the pending list, `linked`);
   * undefined when there was nothing, or another process holds the lock.
   */
  private async pass(): Promise<{ taken: number; linked: number } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [SEAL_LOCK])) as { locked: boolean }[];
      if (!locked) return undefined;
      // The oldest pending records first, then one index probe each into the chain. (An EXISTS in
      // the select list let the planner hash the whole chain on every pass, a cost that grew with it.)
      const pending: PendingRow[] = await manager.query(
        `SELECT p.execution_id, p.digest, c.execution_id IS NOT NULL AS chained
           FROM (SELECT execution_id, digest, queued FROM execution_chain_pending ORDER BY queued LIMIT $1) p
           LEFT JOIN LATERAL (SELECT c.execution_id FROM execution_chain c WHERE c.execution_id = p.execution_id LIMIT 1) c ON true
          ORDER BY p.queued`,
        [this.batch],
      );
      if (pending.length === 0) return undefined;
      const digests = await this.digestsOfUnhashed(manager, pending);
      // The newest link, or where a purge left the chain when it removed every link (one statement: one snapshot of both).
      const [head] = (await manager.query(
        `SELECT seq, hash FROM (SELECT seq, hash FROM execution_chain ORDER BY seq DESC LIMIT 1) newest
          UNION ALL SELECT seq, hash FROM execution_chain_anchor WHERE seq > 0
          ORDER BY seq DESC LIMIT 1`,
      )) as { seq: string; hash: string }[];
      let seq = head ? Number(head.seq) : 0;
      let prevHash = head?.hash ?? GENESIS_HASH;
      const links: { seq: number; id: string; prevHash: string; hash: string }[] = [];
      for (const row of pending) {
        const digest = row.digest ?? digests.get(row.execution_id) ?? null;
        // Linked already, or (written before the chain) deleted before it was linked: nothing to add.
        if (digest === null || row.chained) continue;
        seq += 1;
        const hash = executionLinkHash(prevHash, seq, digest);
        links.push({ seq, id: row.execution_id, prevHash, hash });
        prevHash = hash;
      }
      if (links.length > 0) {
        const last = links.at(-1)!;
        const signature = this.signer.sign(last.hash);
        await manager.query(
          `INSERT INTO execution_chain (seq, execution_id, prev_hash, hash, signature, key_id, sealed_at)
           SELECT l.seq, l.id, l.prev, l.hash, CASE WHEN l.seq = $5 THEN $6 END, CASE WHEN l.seq = $5 THEN $7 END, now()
             FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::text[]) AS l(seq, id, prev, hash)`,
          [links.map((l) => l.seq), links.map((l) => l.id), links.map((l) => l.prevHash), links.map((l) => l.hash), last.seq, signature, this.signer.keyId],
        );
      }
      await manager.query('DELETE FROM execution_chain_pending WHERE execution_id = ANY($1::uuid[])', [pending.map((row) => row.execution_id)]);
      return { taken: pending.length, linked: links.length };
    });
  }

  /** Digests of the pending records that came without one (written before the chain existed), read from the records themselves. */
  private async digestsOfUnhashed(manager: EntityManager, pending: PendingRow[]): Promise<Map<string, string>> {
    const ids = pending.filter((row) => row.digest === null).map((row) => row.execution_id);
    if (ids.length === 0) return new Map();
    const rows: RecordRow[] = await manager.query(`SELECT ${RECORD_COLUMNS} FROM executions e WHERE e.id = ANY($1::uuid[])`, [ids]);
    return new Map(rows.map((row) => [row.e_id!, recordDigest(recordContent(row)!)]));
  }
}

import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { AuditSigner, ChainVerifier, type ChainVerdict } from '../../../audit/domain/audit-chain.js';
import { EXECUTION_CHAIN_RULES, type ChainedExecution } from '../../domain/execution-chain.js';
import { anchorDigest, type ChainAnchor } from '../../domain/execution-retention.js';
import { ANCHOR_COLUMNS, RECORD_COLUMNS, toAnchor, toChainedExecution, type AnchorRow, type LinkRow } from '../../infrastructure/execution-chain-rows.js';
import { ExecutionChainReport, VerifyExecutionChainQuery } from './verify-execution-chain.query.js';

const BATCH = 1000;

@QueryHandler(VerifyExecutionChainQuery)
export class VerifyExecutionChainHandler implements IQueryHandler<VerifyExecutionChainQuery, ExecutionChainReport> {
  constructor(
    @Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork,
    @Inject(AuditSigner) private readonly signer: AuditSigner,
  ) {}

  /** One snapshot throughout (repeatable read): a purge or a seal committing meanwhile is not seen half done. */
  execute(): Promise<ExecutionChainReport> {
    return this.uow.manager().dataSource.transaction('REPEATABLE READ', async (db) => {
      await db.query('SET TRANSACTION READ ONLY');
      const [anchorRow] = (await db.query(`SELECT ${ANCHOR_COLUMNS} FROM execution_chain_anchor`)) as AnchorRow[];
      const anchor = toAnchor(anchorRow);
      const verdict = this.anchorProblem(anchor) ?? (await this.walk(db, anchor));
      const [counts] = (await db.query(
        `SELECT (SELECT count(*) FROM execution_chain_pending)::int AS pending,
                count(*)::int AS unlinked, min(e.id::text) AS first_id
           FROM executions e
          WHERE NOT EXISTS (SELECT 1 FROM execution_chain c WHERE c.execution_id = e.id)
            AND NOT EXISTS (SELECT 1 FROM execution_chain_pending p WHERE p.execution_id = e.id)`,
      )) as { pending: number; unlinked: number; first_id: string | null }[];
      return {
        ...verdict,
        intact: verdict.intact && counts!.unlinked === 0,
        pending: counts!.pending,
        unlinked: { count: counts!.unlinked, firstId: counts!.first_id },
        retention:
          anchor.seq > 0
            ? { purgedThrough: anchor.seq, hash: anchor.hash, purgedCount: anchor.purgedCount, purgedBefore: anchor.purgedBefore?.toISOString() ?? null }
            : null,
        keyId: this.signer.keyId,
        publicKey: this.signer.publicKeyPem,
      };
    });
  }

  /** Links from the anchor on, each beside its record. */
  private async walk(db: EntityManager, anchor: ChainAnchor): Promise<ChainVerdict> {
    const verifier = new ChainVerifier<ChainedExecution>(this.signer, EXECUTION_CHAIN_RULES, anchor);
    let after = anchor.seq;
    for (;;) {
      const rows: LinkRow[] = await db.query(
        `SELECT c.seq, c.execution_id, c.prev_hash, c.hash, c.signature, c.key_id, ${RECORD_COLUMNS}
           FROM execution_chain c LEFT JOIN executions e ON e.id = c.execution_id
          WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
        [after, BATCH],
      );
      if (rows.length === 0 || !verifier.feed(rows.map(toChainedExecution))) break;
      after = Number(rows.at(-1)!.seq);
      // Other requests get a turn between batches of a long history.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return verifier.verdict();
  }

  /** Once links were purged, verification starts at the anchor, which must carry the chain's own signature. */
  private anchorProblem(anchor: ChainAnchor): ChainVerdict | undefined {
    if (anchor.seq === 0) return undefined;
    const detail = `the retention anchor (links up to ${anchor.seq} purged)`;
    if (anchor.signature === null || anchor.keyId === null) {
      return { intact: false, events: 0, head: null, firstProblem: { seq: anchor.seq, id: null, problem: 'unsigned', detail: `${detail} carries no signature` } };
    }
    if (this.signer.verify(anchorDigest(anchor), anchor.signature, anchor.keyId)) return undefined;
    const unknown = anchor.keyId !== this.signer.keyId;
    return {
      intact: false,
      events: 0,
      head: null,
      firstProblem: { seq: anchor.seq, id: null, problem: unknown ? 'unknown key' : 'bad signature', detail: `${detail} ${unknown ? `is signed by key ${anchor.keyId}` : 'has a signature that does not verify'}` },
    };
  }
}

import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { AuditSigner, ChainVerifier } from '../../domain/audit-chain.js';
import { EXECUTION_CHAIN_RULES, type ChainedExecution } from '../../domain/execution-chain.js';
import { RECORD_COLUMNS, toChainedExecution, type LinkRow } from '../../infrastructure/execution-chain-rows.js';
import { ExecutionChainReport, VerifyExecutionChainQuery } from './verify-execution-chain.query.js';

const BATCH = 1000;

@QueryHandler(VerifyExecutionChainQuery)
export class VerifyExecutionChainHandler implements IQueryHandler<VerifyExecutionChainQuery, ExecutionChainReport> {
  constructor(
    @Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork,
    @Inject(AuditSigner) private readonly signer: AuditSigner,
  ) {}

  async execute(): Promise<ExecutionChainReport> {
    const db = this.uow.manager();
    const verifier = new ChainVerifier<ChainedExecution>(this.signer, EXECUTION_CHAIN_RULES);
    let after = 0;
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
    const [counts] = (await db.query(
      `SELECT (SELECT count(*) FROM execution_chain_pending)::int AS pending,
              count(*)::int AS unlinked, min(e.id::text) AS first_id
         FROM executions e
        WHERE NOT EXISTS (SELECT 1 FROM execution_chain c WHERE c.execution_id = e.id)
          AND NOT EXISTS (SELECT 1 FROM execution_chain_pending p WHERE p.execution_id = e.id)`,
    )) as { pending: number; unlinked: number; first_id: string | null }[];
    const verdict = verifier.verdict();
    return {
      ...verdict,
      intact: verdict.intact && counts!.unlinked === 0,
      pending: counts!.pending,
      unlinked: { count: counts!.unlinked, firstId: counts!.first_id },
      keyId: this.signer.keyId,
      publicKey: this.signer.publicKeyPem,
    };
  }
}

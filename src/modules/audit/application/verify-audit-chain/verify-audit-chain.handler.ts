import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { AUDIT_CHAIN_RULES, AuditSigner, ChainVerifier } from '../../domain/audit-chain.js';
import { toEvent, type Row } from '../../infrastructure/typeorm-audit-log.js';
import { AuditChainReport, VerifyAuditChainQuery } from './verify-audit-chain.query.js';

const BATCH = 1000;

@QueryHandler(VerifyAuditChainQuery)
export class VerifyAuditChainHandler implements IQueryHandler<VerifyAuditChainQuery, AuditChainReport> {
  constructor(
    @Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork,
    @Inject(AuditSigner) private readonly signer: AuditSigner,
  ) {}

  async execute(): Promise<AuditChainReport> {
    const verifier = new ChainVerifier(this.signer, AUDIT_CHAIN_RULES);
    let after = 0;
    for (;;) {
      const rows: Row[] = await this.uow.manager().query(`SELECT * FROM audit_events WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, BATCH]);
      if (rows.length === 0 || !verifier.feed(rows.map(toEvent))) break;
      after = Number(rows.at(-1)!.seq);
      // Other requests get a turn between batches of a long trail.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { ...verifier.verdict(), keyId: this.signer.keyId, publicKey: this.signer.publicKeyPem };
  }
}

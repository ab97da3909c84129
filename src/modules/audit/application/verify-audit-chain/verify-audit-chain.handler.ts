import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AUDIT_CHAIN_RULES, AuditSigner, ChainVerifier } from '../../domain/audit-chain.js';
import { AuditReads } from '../audit-reads.js';
import { AuditChainReport, VerifyAuditChainQuery } from './verify-audit-chain.query.js';

const BATCH = 1000;

@QueryHandler(VerifyAuditChainQuery)
export class VerifyAuditChainHandler implements IQueryHandler<VerifyAuditChainQuery, AuditChainReport> {
  constructor(
    @Inject(AuditReads) private readonly reads: AuditReads,
    @Inject(AuditSigner) private readonly signer: AuditSigner,
  ) {}

  async execute(): Promise<AuditChainReport> {
    const verifier = new ChainVerifier(this.signer, AUDIT_CHAIN_RULES);
    let after = 0;
    for (;;) {
      const events = await this.reads.chain(after, BATCH);
      if (events.length === 0 || !verifier.feed(events)) break;
      after = events.at(-1)!.seq;
      // Other requests get a turn between batches of a long trail.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { ...verifier.verdict(), keyId: this.signer.keyId, publicKey: this.signer.publicKeyPem };
  }
}

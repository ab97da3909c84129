import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { heavySteps } from '../../../../shared/heavy-steps.js';
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
    // Other requests get a turn between batches of a long trail.
    const verdict = await new ChainVerifier(this.signer, AUDIT_CHAIN_RULES).walk((after, limit) => this.reads.chain(after, limit), BATCH, () => heavySteps.turn());
    return { ...verdict, keyId: this.signer.keyId, publicKey: this.signer.publicKeyPem };
  }
}

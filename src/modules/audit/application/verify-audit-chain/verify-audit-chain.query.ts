import { Query } from '@nestjs/cqrs';
import type { ChainVerdict } from '../../domain/audit-chain.js';

export type AuditChainReport = ChainVerdict & { keyId: string; publicKey: string };

/** VerifyAuditChain: the whole trail checked, link by link and signature by signature. */
export class VerifyAuditChainQuery extends Query<AuditChainReport> {}

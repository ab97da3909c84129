import { Query } from '@nestjs/cqrs';
import type { ChainVerdict } from '../../../audit/domain/audit-chain.js';

export interface ExecutionChainReport extends ChainVerdict {
  /** Records written but not linked yet (the sealer links them within its interval). */
  pending: number;
  /** Records neither linked nor pending: written past the recorder, straight into the table. */
  unlinked: { count: number; firstId: string | null };
  /** Where verification started when retention purged the oldest links: the last purged link; null when none was. */
  retention: { purgedThrough: number; hash: string; purgedCount: number; purgedBefore: string | null } | null;
  keyId: string;
  publicKey: string;
}

/** VerifyExecutionChain: the executions' own chain checked link by link, and records outside it counted. */
export class VerifyExecutionChainQuery extends Query<ExecutionChainReport> {}

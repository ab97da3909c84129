import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { heavySteps } from '../../../../shared/heavy-steps.js';
import { AuditSigner, ChainVerifier, type ChainVerdict } from '../../../audit/domain/audit-chain.js';
import { EXECUTION_CHAIN_RULES, type ChainedExecution } from '../../domain/execution-chain.js';
import { anchorDigest, type ChainAnchor } from '../../domain/execution-retention.js';
import { ExecutionReads, type ExecutionChainSnapshot } from '../execution-reads.js';
import { ExecutionChainReport, VerifyExecutionChainQuery } from './verify-execution-chain.query.js';

const BATCH = 1000;

@QueryHandler(VerifyExecutionChainQuery)
export class VerifyExecutionChainHandler implements IQueryHandler<VerifyExecutionChainQuery, ExecutionChainReport> {
  constructor(
    @Inject(ExecutionReads) private readonly reads: ExecutionReads,
    @Inject(AuditSigner) private readonly signer: AuditSigner,
  ) {}

  /** One snapshot throughout: a purge or a seal committing meanwhile is not seen half done. */
  execute(): Promise<ExecutionChainReport> {
    return this.reads.readChain(async (chain) => {
      const anchor = await chain.anchor();
      const verdict = this.anchorProblem(anchor) ?? (await this.walk(chain, anchor));
      const unchained = await chain.unchained();
      return {
        ...verdict,
        intact: verdict.intact && unchained.unlinked === 0,
        pending: unchained.pending,
        unlinked: { count: unchained.unlinked, firstId: unchained.firstUnlinkedId },
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
  private async walk(chain: ExecutionChainSnapshot, anchor: ChainAnchor): Promise<ChainVerdict> {
    // Other requests get a turn between batches of a long history.
    return new ChainVerifier<ChainedExecution>(this.signer, EXECUTION_CHAIN_RULES, anchor).walk((after, limit) => chain.links(after, limit), BATCH, () => heavySteps.turn());
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

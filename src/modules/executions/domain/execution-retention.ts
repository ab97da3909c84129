import { canonicalJson, sha256Hex } from '../../../shared/canonical-json.js';
import { GENESIS_HASH } from '../../audit/domain/audit-chain.js';

/**
 * Where the retained part of the executions' chain begins: the last link a purge removed, so that
 * verification starts after it (its hash is the next link's previous hash). Signed with the chain's
 * key once anything was purged; `seq` 0 and the genesis hash while nothing was.
 */
export interface ChainAnchor {
  seq: number;
  hash: string;
  /** Every purged execution started before this; null while nothing was purged. */
  purgedBefore: Date | null;
  /** Executions purged so far. */
  purgedCount: number;
  signature: string | null;
  keyId: string | null;
}

export const NOTHING_PURGED: ChainAnchor = { seq: 0, hash: GENESIS_HASH, purgedBefore: null, purgedCount: 0, signature: null, keyId: null };

/** What the anchor's signature covers: every field but the signature, in canonical form, hashed. */
export function anchorDigest(anchor: Pick<ChainAnchor, 'seq' | 'hash' | 'purgedBefore' | 'purgedCount'>): string {
  return sha256Hex(
    canonicalJson({
      kind: 'execution-chain-anchor',
      seq: anchor.seq,
      hash: anchor.hash,
      purgedBefore: anchor.purgedBefore?.toISOString() ?? null,
      purgedCount: anchor.purgedCount,
    }),
  );
}

/** A link at the start of the chain as a purge reads it: no record content, only its start time. */
export interface PurgeCandidate {
  seq: number;
  executionId: string;
  prevHash: string;
  hash: string;
  /** When its execution started; null when the record is gone. */
  startedAt: Date | null;
}

/** Why a purge stopped where it did. */
export type PurgeStop =
  /** Every candidate read may go (there may be more after them). */
  | 'none'
  /** The next link's execution is within the retention period. */
  | 'retained'
  /** The next link does not follow the anchor (a link missing, inserted or rewritten) or its record is gone: verification will name it. */
  | 'broken';

/**
 * The links that may be purged: the longest run from the anchor on whose executions all started
 * before `cutoff`. The chain is in recording order, close to start order: an execution that ran
 * long may wait for one recorded before it to age out, at most the length of a call. The run ends
 * before a link that does not follow the one before it or whose record is gone, so a purge never
 * erases what verification would report.
 */
export function purgeablePrefix(anchor: Pick<ChainAnchor, 'seq' | 'hash'>, links: readonly PurgeCandidate[], cutoff: Date): { purge: PurgeCandidate[]; stop: PurgeStop } {
  const purge: PurgeCandidate[] = [];
  let seq = anchor.seq;
  let prevHash = anchor.hash;
  for (const link of links) {
    if (link.seq !== seq + 1 || link.prevHash !== prevHash || link.startedAt === null) return { purge, stop: 'broken' };
    if (link.startedAt.getTime() >= cutoff.getTime()) return { purge, stop: 'retained' };
    purge.push(link);
    seq = link.seq;
    prevHash = link.hash;
  }
  return { purge, stop: 'none' };
}

/** The anchor after purging `purged` (a non-empty prefix from `anchor` on), before it is signed. */
export function advanceAnchor(anchor: ChainAnchor, purged: readonly PurgeCandidate[], cutoff: Date): Omit<ChainAnchor, 'signature' | 'keyId'> {
  const last = purged.at(-1)!;
  const purgedBefore = anchor.purgedBefore && anchor.purgedBefore.getTime() > cutoff.getTime() ? anchor.purgedBefore : cutoff;
  return { seq: last.seq, hash: last.hash, purgedBefore, purgedCount: anchor.purgedCount + purged.length };
}

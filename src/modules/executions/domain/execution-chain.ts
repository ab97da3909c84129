import { hash } from 'node:crypto';
import type { ChainLink, ChainRules } from '../../audit/domain/audit-chain.js';

/**
 * An execution record's link in the executions' own hash chain. `digest` is the record's digest
 * recomputed from what is stored now (see recordDigest), or null when the record is gone.
 */
export interface ChainedExecution extends ChainLink {
  digest: string | null;
}

/** The link's hash: SHA-256 of the previous hash, the link's number and the record's digest. */
export function executionLinkHash(prevHash: string, seq: number, digest: string): string {
  return hash('sha256', `${prevHash}\n${seq}\n${digest}`, 'hex');
}

/** Every link hashes its record's digest; a sealing pass signs only its last link (a checkpoint). */
export const EXECUTION_CHAIN_RULES: ChainRules<ChainedExecution> = {
  recompute: (link) => (link.digest === null ? undefined : executionLinkHash(link.prevHash, link.seq, link.digest)),
  signatures: 'checkpoints',
};

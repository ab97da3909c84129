import { createHash } from 'node:crypto';
import type { ChainLink, ChainRules } from './audit-chain.js';

/**
 * An execution record's link in the executions' own hash chain. `content` is the stored record in
 * a fixed form (its fields in a fixed order, as read back from the database), or null when the
 * record the link stands for is gone.
 */
export interface ChainedExecution extends ChainLink {
  content: Record<string, unknown> | null;
}

/** The link's hash: SHA-256 of the previous hash, the link's number and the record's content. */
export function executionLinkHash(prevHash: string, seq: number, content: Record<string, unknown>): string {
  return createHash('sha256').update(prevHash).update('\n').update(String(seq)).update('\n').update(JSON.stringify(content)).digest('hex');
}

/** Every link hashes its record; a sealing pass signs only its last link (a checkpoint). */
export const EXECUTION_CHAIN_RULES: ChainRules<ChainedExecution> = {
  recompute: (link) => (link.content === null ? undefined : executionLinkHash(link.prevHash, link.seq, link.content)),
  signatures: 'checkpoints',
};

import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../shared/canonical-json.js';
import type { AuditEvent } from './audit-event.js';

/** A link of a hash chain: its number, its hash over the previous one, and a signature where one was made. */
export interface ChainLink {
  seq: number;
  /** What the link stands for (an event's or an execution's id). */
  id: string | null;
  prevHash: string;
  hash: string;
  signature: string | null;
  keyId: string | null;
}

/** An audit event with its place in the chain. */
export interface ChainedAuditEvent extends AuditEvent {
  /** 1, 2, 3, … without gaps. */
  seq: number;
  /** The previous event's hash (64 zeros for the first). */
  prevHash: string;
  /** SHA-256 of the previous hash and the event's canonical form, hex. */
  hash: string;
  /** Ed25519 signature of `hash`, base64, by the key named `keyId`. */
  signature: string;
  keyId: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/** The event's hash: every field that describes it, in a canonical form, after the previous hash. */
export function chainHash(prevHash: string, seq: number, event: AuditEvent): string {
  const body = canonicalJson({
    seq,
    id: event.id,
    occurredAt: event.occurredAt.toISOString(),
    actor: event.actor,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    targetName: event.targetName,
    details: event.details,
    // Absent (not null) when unknown, so events from before these fields hash as they did.
    requestId: event.requestId ?? undefined,
    clientAddress: event.clientAddress ?? undefined,
  });
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}

/** Signs and checks chain hashes with a key the database does not hold. */
export abstract class AuditSigner {
  abstract readonly keyId: string;
  /** The public key (PEM), to verify the trail elsewhere. */
  abstract readonly publicKeyPem: string;
  abstract sign(hash: string): string;
  abstract verify(hash: string, signature: string, keyId: string): boolean;
}

export type ChainProblem = 'altered' | 'missing' | 'inserted' | 'bad signature' | 'unknown key' | 'unsigned';

/** What verifying the chain found: intact up to `head`, or the first event that is not what was written. */
export interface ChainVerdict {
  intact: boolean;
  events: number;
  head: { seq: number; hash: string } | null;
  firstProblem?: { seq: number; id: string | null; problem: ChainProblem; detail: string };
}

/**
 * How links are checked: `recompute` answers a link's hash from what it stands for (undefined when
 * that is gone); `signatures` says whether every link is signed or only checkpoints, of which the
 * newest link must be one.
 */
export interface ChainRules<T extends ChainLink> {
  recompute(link: T): string | undefined;
  signatures: 'every' | 'checkpoints';
}

/** The audit trail's rules: every event signed, its hash over its own fields. */
export const AUDIT_CHAIN_RULES: ChainRules<ChainedAuditEvent> = {
  recompute: (event) => chainHash(event.prevHash, event.seq, event),
  signatures: 'every',
};

/**
 * Walks a chain in `seq` order, one batch at a time, and answers the first link that breaks it:
 * a hash that does not recompute (altered), what it stands for gone, a gap in `seq` or a previous
 * hash that does not match (missing or inserted), a signature that does not verify, a newest link
 * that is not signed. Someone who rewrites rows and recomputes the hashes cannot make the
 * signatures without the key.
 */
export class ChainVerifier<T extends ChainLink> {
  private expectedSeq: number;
  private prevHash: string;
  private count = 0;
  private problem?: ChainVerdict['firstProblem'];
  private last?: T;

  /** `start`: the link before the first one to check, when earlier links were purged (seq 0, the genesis hash otherwise). */
  constructor(
    private readonly signer: AuditSigner,
    private readonly rules: ChainRules<T>,
    private readonly start: { seq: number; hash: string } = { seq: 0, hash: GENESIS_HASH },
  ) {
    this.expectedSeq = start.seq + 1;
    this.prevHash = start.hash;
  }

  /**
   * Reads the links after the start `batch` at a time (`read(after, limit)`, in seq order) and feeds
   * them until the chain ends or a problem is found, waiting for `pause` between batches so that
   * other work gets a turn during a long chain. Answers the verdict.
   */
  async walk(read: (after: number, limit: number) => Promise<T[]>, batch: number, pause: () => Promise<void>): Promise<ChainVerdict> {
    let after = this.start.seq;
    for (;;) {
      const links = await read(after, batch);
      if (links.length === 0 || !this.feed(links)) break;
      after = links.at(-1)!.seq;
      await pause();
    }
    return this.verdict();
  }

  /** Feeds the next links in seq order; false once a problem was found (no need to read on). */
  feed(events: T[]): boolean {
    for (const event of events) {
      if (this.problem) return false;
      if (event.seq !== this.expectedSeq || event.prevHash !== this.prevHash) {
        const kind: ChainProblem = event.seq > this.expectedSeq ? 'missing' : 'inserted';
        const detail =
          event.seq > this.expectedSeq
            ? `events ${this.expectedSeq}–${event.seq - 1} are missing`
            : event.seq < this.expectedSeq
              ? `seq ${event.seq} appears again`
              : `its previous hash is not the hash of event ${event.seq - 1}`;
        this.problem = { seq: event.seq, id: event.id, problem: kind, detail };
        return false;
      }
      const recomputed = this.rules.recompute(event);
      if (recomputed === undefined) {
        this.problem = { seq: event.seq, id: event.id, problem: 'missing', detail: 'what it stands for was deleted' };
        return false;
      }
      if (recomputed !== event.hash) {
        this.problem = { seq: event.seq, id: event.id, problem: 'altered', detail: 'its content does not match its hash' };
        return false;
      }
      const signed = event.signature !== null && event.keyId !== null;
      if (!signed && this.rules.signatures === 'every') {
        this.problem = { seq: event.seq, id: event.id, problem: 'unsigned', detail: 'it carries no signature' };
        return false;
      }
      if (signed && !this.signer.verify(event.hash, event.signature!, event.keyId!)) {
        const unknown = event.keyId !== this.signer.keyId;
        this.problem = { seq: event.seq, id: event.id, problem: unknown ? 'unknown key' : 'bad signature', detail: unknown ? `signed by key ${event.keyId}, not this Toolplane's ${this.signer.keyId}` : 'its signature does not verify' };
        return false;
      }
      this.prevHash = event.hash;
      this.expectedSeq += 1;
      this.count += 1;
      this.last = event;
    }
    return true;
  }

  verdict(): ChainVerdict {
    const last = this.last;
    if (!this.problem && last && last.signature === null) {
      // Links after the last signature could have been rewritten, hashes and all.
      this.problem = { seq: last.seq, id: last.id, problem: 'unsigned', detail: 'the newest link is not a signed checkpoint' };
    }
    // With nothing linked after a purge, the head is where the purge left the chain.
    const head = this.count > 0 || this.start.seq > 0 ? { seq: this.expectedSeq - 1, hash: this.prevHash } : null;
    return this.problem ? { intact: false, events: this.count, head, firstProblem: this.problem } : { intact: true, events: this.count, head };
  }
}

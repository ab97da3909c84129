import { randomBytes } from 'node:crypto';
import { Ed25519AuditSigner } from '../../audit/infrastructure/ed25519-audit-signer.js';
import { ChainVerifier, GENESIS_HASH } from '../../audit/domain/audit-chain.js';
import { EXECUTION_CHAIN_RULES, executionLinkHash, type ChainedExecution } from './execution-chain.js';
import { advanceAnchor, anchorDigest, NOTHING_PURGED, purgeablePrefix, type PurgeCandidate } from './execution-retention.js';

const DAY = 86_400_000;
const NOW = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

describe('retention of the executions chain', () => {
  const signer = new Ed25519AuditSigner(randomBytes(32));

  /** Links 1…n over digests d1…, their executions started `ages[i]` days ago; the last one signed. */
  const chain = (ages: number[]): (ChainedExecution & PurgeCandidate)[] => {
    let prevHash = GENESIS_HASH;
    return ages.map((age, i) => {
      const seq = i + 1;
      const hash = executionLinkHash(prevHash, seq, `d${seq}`);
      const last = i === ages.length - 1;
      const link = { seq, id: `e${seq}`, executionId: `e${seq}`, prevHash, hash, digest: `d${seq}`, startedAt: daysAgo(age), signature: last ? signer.sign(hash) : null, keyId: last ? signer.keyId : null };
      prevHash = hash;
      return link;
    });
  };

  it('purges the run of links from the anchor whose executions started before the cutoff', () => {
    const links = chain([40, 39, 35, 31, 29, 20, 1]);
    expect(purgeablePrefix(NOTHING_PURGED, links, daysAgo(30))).toMatchObject({ purge: links.slice(0, 4), stop: 'retained' });
    expect(purgeablePrefix(NOTHING_PURGED, links, daysAgo(0))).toMatchObject({ purge: links, stop: 'none' });
    expect(purgeablePrefix(NOTHING_PURGED, links, daysAgo(50))).toMatchObject({ purge: [], stop: 'retained' });
  });

  it('keeps an old execution recorded after a younger one until that one ages out too', () => {
    const links = chain([40, 29, 31, 20]);
    expect(purgeablePrefix(NOTHING_PURGED, links, daysAgo(30)).purge.map((l) => l.seq)).toEqual([1]);
    expect(purgeablePrefix(NOTHING_PURGED, links, daysAgo(28)).purge.map((l) => l.seq)).toEqual([1, 2, 3]);
  });

  it('stops before a gap, a link that does not follow the one before, or a record that is gone', () => {
    const links = chain([40, 39, 38, 37]);
    expect(purgeablePrefix(NOTHING_PURGED, [links[0]!, links[2]!, links[3]!], daysAgo(30))).toMatchObject({ purge: [links[0]], stop: 'broken' });
    expect(purgeablePrefix(NOTHING_PURGED, [links[0]!, { ...links[1]!, prevHash: 'f'.repeat(64) }], daysAgo(30))).toMatchObject({ purge: [links[0]], stop: 'broken' });
    expect(purgeablePrefix(NOTHING_PURGED, [links[0]!, { ...links[1]!, startedAt: null }], daysAgo(30))).toMatchObject({ purge: [links[0]], stop: 'broken' });
    // A first link that does not follow the anchor.
    expect(purgeablePrefix(NOTHING_PURGED, links.slice(1), daysAgo(30))).toMatchObject({ purge: [], stop: 'broken' });
  });

  it('moves the anchor to the last purged link, so verification starts after it and still finds what changed later', () => {
    const links = chain([40, 39, 35, 10, 5, 1]);
    const { purge } = purgeablePrefix(NOTHING_PURGED, links, daysAgo(30));
    const anchor = advanceAnchor(NOTHING_PURGED, purge, daysAgo(30));
    expect(anchor).toEqual({ seq: 3, hash: links[2]!.hash, purgedBefore: daysAgo(30), purgedCount: 3 });
    const verify = (rest: ChainedExecution[]) => {
      const verifier = new ChainVerifier(signer, EXECUTION_CHAIN_RULES, anchor);
      verifier.feed(rest);
      return verifier.verdict();
    };
    expect(verify(links.slice(3))).toMatchObject({ intact: true, events: 3, head: { seq: 6 } });
    expect(verify([{ ...links[3]!, digest: 'd4 changed' }, ...links.slice(4)])).toMatchObject({ intact: false, firstProblem: { seq: 4, problem: 'altered' } });
    expect(verify(links.slice(4))).toMatchObject({ intact: false, firstProblem: { seq: 5, problem: 'missing' } });
    // Nothing left after the anchor: the head is the anchor.
    expect(verify([])).toMatchObject({ intact: true, events: 0, head: { seq: 3, hash: links[2]!.hash } });
  });

  it('signs what the anchor says: any field changed breaks its signature', () => {
    const anchor = { seq: 3, hash: 'a'.repeat(64), purgedBefore: daysAgo(30), purgedCount: 3 };
    const signature = signer.sign(anchorDigest(anchor));
    expect(signer.verify(anchorDigest(anchor), signature, signer.keyId)).toBe(true);
    for (const changed of [{ seq: 2 }, { hash: 'b'.repeat(64) }, { purgedBefore: daysAgo(29) }, { purgedCount: 4 }]) {
      expect(signer.verify(anchorDigest({ ...anchor, ...changed }), signature, signer.keyId)).toBe(false);
    }
  });

  it('never moves purgedBefore back when the retention grows longer', () => {
    const links = chain([100, 90]);
    const first = { ...advanceAnchor(NOTHING_PURGED, links.slice(0, 1), daysAgo(30)), signature: null, keyId: null };
    expect(advanceAnchor(first, links.slice(1), daysAgo(60)).purgedBefore).toEqual(daysAgo(30));
  });
});

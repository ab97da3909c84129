import { randomBytes } from 'node:crypto';
import { chainHash } from '../../domain/audit-chain.js';
import { Ed25519AuditSigner } from '../../infrastructure/ed25519-audit-signer.js';
import { anAuditEvent } from '../../testing/builders.js';
import { InMemoryAuditReads } from '../../testing/in-memory-audit-reads.js';
import { VerifyAuditChainHandler } from './verify-audit-chain.handler.js';

const signer = new Ed25519AuditSigner(randomBytes(32));

function setup(events: number) {
  const reads = new InMemoryAuditReads(signer);
  reads.append(...Array.from({ length: events }, () => anAuditEvent()));
  const verify = () => new VerifyAuditChainHandler(reads, signer).execute();
  return { reads, verify };
}

describe('VerifyAuditChainHandler', () => {
  it('reports an intact trail, its head and the key to check it with', async () => {
    const f = setup(3);
    expect(await f.verify()).toEqual({ intact: true, events: 3, head: { seq: 3, hash: f.reads.events[2]!.hash }, keyId: signer.keyId, publicKey: signer.publicKeyPem });
  });

  it('reports an empty trail as intact, with no head', async () => {
    expect(await setup(0).verify()).toEqual({ intact: true, events: 0, head: null, keyId: signer.keyId, publicKey: signer.publicKeyPem });
  });

  it('names the first event changed, deleted, slipped in, or signed with another key', async () => {
    const f = setup(6);
    const original = structuredClone(f.reads.events);

    f.reads.events[1]!.details = { created: false };
    expect(await f.verify()).toMatchObject({ intact: false, events: 1, head: { seq: 1 }, firstProblem: { seq: 2, id: original[1]!.id, problem: 'altered' } });

    f.reads.events = original.filter((event) => event.seq !== 3);
    expect(await f.verify()).toMatchObject({ intact: false, events: 2, firstProblem: { seq: 4, problem: 'missing', detail: 'events 3–3 are missing' } });

    const slipped = { ...original[3]!, id: 'slipped-in', seq: 3 };
    slipped.hash = chainHash(slipped.prevHash, 3, slipped);
    f.reads.events = [...original.slice(0, 3), slipped, ...original.slice(3)];
    expect(await f.verify()).toMatchObject({ intact: false, firstProblem: { seq: 3, problem: 'inserted', detail: 'seq 3 appears again' } });

    const other = new Ed25519AuditSigner(randomBytes(32));
    f.reads.events = original.map((event) => (event.seq === 5 ? { ...event, signature: other.sign(event.hash), keyId: other.keyId } : event));
    expect(await f.verify()).toMatchObject({ intact: false, events: 4, firstProblem: { seq: 5, problem: 'unknown key' } });
  });

  it('reads a long trail a thousand events at a time, and no further than its first problem', async () => {
    const f = setup(1001);
    expect(await f.verify()).toMatchObject({ intact: true, events: 1001, head: { seq: 1001 } });
    expect(f.reads.chainReads).toEqual([
      { afterSeq: 0, limit: 1000 },
      { afterSeq: 1000, limit: 1000 },
      { afterSeq: 1001, limit: 1000 },
    ]);

    f.reads.chainReads.splice(0);
    f.reads.events[499]!.actor = 'someone else';
    expect(await f.verify()).toMatchObject({ intact: false, events: 499, firstProblem: { seq: 500, problem: 'altered' } });
    expect(f.reads.chainReads.map((read) => read.afterSeq)).toEqual([0]);
  });
});

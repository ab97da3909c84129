import { randomBytes } from 'node:crypto';
import { Ed25519AuditSigner } from '../../../audit/infrastructure/ed25519-audit-signer.js';
import { anchorDigest } from '../../domain/execution-retention.js';
import { anExecution } from '../../testing/builders.js';
import { InMemoryExecutionReads } from '../../testing/in-memory-execution-reads.js';
import { VerifyExecutionChainHandler } from './verify-execution-chain.handler.js';

const signer = new Ed25519AuditSigner(randomBytes(32));

/** A history of `sealed` calls linked and signed, and `waiting` more recorded since. */
function setup(sealed: number, waiting = 0) {
  const reads = new InMemoryExecutionReads();
  reads.record(...Array.from({ length: sealed }, () => anExecution()));
  reads.seal(signer);
  reads.record(...Array.from({ length: waiting }, () => anExecution()));
  const verify = () => new VerifyExecutionChainHandler(reads, signer).execute();
  return { reads, verify };
}

describe('VerifyExecutionChainHandler', () => {
  it('reports an intact chain, the records waiting for the sealer, and the key to check it with', async () => {
    const f = setup(3, 2);
    const head = f.reads.links.at(-1)!;

    expect(await f.verify()).toEqual({
      intact: true,
      events: 3,
      head: { seq: 3, hash: head.hash },
      pending: 2,
      unlinked: { count: 0, firstId: null },
      retention: null,
      keyId: signer.keyId,
      publicKey: signer.publicKeyPem,
    });
  });

  it('names the first record changed or deleted after it was linked', async () => {
    const f = setup(4);
    const [, second, third] = f.reads.executions;
    second!.arguments = { path: '/etc/shadow' };
    f.reads.executions = f.reads.executions.filter((execution) => execution !== third);

    expect(await f.verify()).toMatchObject({ intact: false, events: 1, firstProblem: { seq: 2, id: second!.id, problem: 'altered' } });

    second!.arguments = { path: '/tmp/a' };
    expect(await f.verify()).toMatchObject({ intact: false, events: 2, firstProblem: { seq: 3, id: third!.id, problem: 'missing' } });
  });

  it('is not intact while a record was written past the recorder, and names the first such one', async () => {
    const f = setup(2);
    const [earlier, later] = [anExecution(), anExecution()];
    f.reads.executions.push(later, earlier);

    const report = await f.verify();

    expect(report).toMatchObject({ intact: false, events: 2, unlinked: { count: 2, firstId: earlier.id } });
    expect(report.firstProblem).toBeUndefined();
  });

  it('starts after the signed anchor once retention purged links, and says what was purged', async () => {
    const f = setup(5);
    f.reads.purge(3, new Date('2026-01-20T00:00:00.000Z'), signer);

    expect(await f.verify()).toMatchObject({
      intact: true,
      events: 2,
      head: { seq: 5, hash: f.reads.links.at(-1)!.hash },
      retention: { purgedThrough: 3, hash: f.reads.anchor.hash, purgedCount: 3, purgedBefore: '2026-01-20T00:00:00.000Z' },
    });
  });

  it('refuses an anchor that is unsigned, signed by another key, or changed after it was signed, without walking on', async () => {
    const f = setup(5);
    f.reads.purge(2, new Date('2026-01-20T00:00:00.000Z'), signer);
    const anchor = f.reads.anchor;
    const problem = async () => {
      const report = await f.verify();
      expect(report).toMatchObject({ intact: false, events: 0, head: null });
      return report.firstProblem;
    };

    f.reads.anchor = { ...anchor, signature: null, keyId: null };
    expect(await problem()).toEqual({ seq: 2, id: null, problem: 'unsigned', detail: 'the retention anchor (links up to 2 purged) carries no signature' });

    const other = new Ed25519AuditSigner(randomBytes(32));
    f.reads.anchor = { ...anchor, signature: other.sign(anchorDigest(anchor)), keyId: other.keyId };
    expect(await problem()).toMatchObject({ seq: 2, problem: 'unknown key', detail: `the retention anchor (links up to 2 purged) is signed by key ${other.keyId}` });

    f.reads.anchor = { ...anchor, purgedCount: 1 };
    expect(await problem()).toMatchObject({ seq: 2, problem: 'bad signature' });
    expect(f.reads.linkReads).toEqual([]);
  });

  it('walks a long chain a thousand links at a time, each batch after the last', async () => {
    const f = setup(1001);

    expect(await f.verify()).toMatchObject({ intact: true, events: 1001, head: { seq: 1001 } });
    expect(f.reads.linkReads).toEqual([
      { afterSeq: 0, limit: 1000 },
      { afterSeq: 1000, limit: 1000 },
      { afterSeq: 1001, limit: 1000 },
    ]);
  });

  it('reads everything from one snapshot: a record written meanwhile is not counted', async () => {
    const f = setup(3);
    f.reads.afterLinksRead = () => f.reads.executions.push(anExecution());

    expect(await f.verify()).toMatchObject({ intact: true, unlinked: { count: 0, firstId: null } });
    expect(f.reads.calls).toEqual(['readChain']);
    expect(f.reads.executions).toHaveLength(5);
  });
});

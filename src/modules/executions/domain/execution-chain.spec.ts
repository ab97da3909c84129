import { randomBytes } from 'node:crypto';
import { Ed25519AuditSigner } from '../../audit/infrastructure/ed25519-audit-signer.js';
import { ChainVerifier, GENESIS_HASH } from '../../audit/domain/audit-chain.js';
import { EXECUTION_CHAIN_RULES, executionLinkHash, type ChainedExecution } from './execution-chain.js';

describe('the executions chain', () => {
  const signer = new Ed25519AuditSigner(randomBytes(32));

  /** `n` links over record digests `d1`, `d2`, …, signed at the given seqs. */
  const chain = (n: number, signedAt: number[]): ChainedExecution[] => {
    let prevHash = GENESIS_HASH;
    return Array.from({ length: n }, (_, i) => {
      const seq = i + 1;
      const digest = `d${seq}`;
      const hash = executionLinkHash(prevHash, seq, digest);
      const signed = signedAt.includes(seq);
      const link = { seq, id: `e${seq}`, prevHash, hash, signature: signed ? signer.sign(hash) : null, keyId: signed ? signer.keyId : null, digest };
      prevHash = hash;
      return link;
    });
  };
  const verify = (links: ChainedExecution[]) => {
    const verifier = new ChainVerifier(signer, EXECUTION_CHAIN_RULES);
    verifier.feed(links);
    return verifier.verdict();
  };

  it('is intact when every link recomputes and the newest is a signed checkpoint', () => {
    expect(verify(chain(5, [3, 5]))).toMatchObject({ intact: true, events: 5, head: { seq: 5 } });
  });

  it('names a newest link that is not signed: what follows the last signature could be rewritten', () => {
    expect(verify(chain(5, [3]))).toMatchObject({ intact: false, firstProblem: { seq: 5, problem: 'unsigned' } });
  });

  it('names an altered record, a deleted one, a gap, and a forged signature', () => {
    const altered = chain(5, [5]);
    altered[1] = { ...altered[1]!, digest: 'd2 changed' };
    expect(verify(altered)).toMatchObject({ intact: false, events: 1, firstProblem: { seq: 2, problem: 'altered' } });
    const deleted = chain(5, [5]);
    deleted[2] = { ...deleted[2]!, digest: null };
    expect(verify(deleted)).toMatchObject({ firstProblem: { seq: 3, problem: 'missing' } });
    const gap = chain(5, [5]);
    gap.splice(1, 1);
    expect(verify(gap)).toMatchObject({ firstProblem: { seq: 3, problem: 'missing' } });
    const forged = chain(5, [5]);
    forged[4] = { ...forged[4]!, signature: new Ed25519AuditSigner(randomBytes(32)).sign(forged[4]!.hash) };
    expect(verify(forged)).toMatchObject({ firstProblem: { seq: 5, problem: 'bad signature' } });
  });
});

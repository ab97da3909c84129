import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { WorkMetrics } from '../../../shared/work-metrics.js';
import type { ExecutionRecord } from '../domain/execution.js';
import { adminQuery as admin, migratedDataSource, testServerUrl, withDatabase } from '../../../../test/helpers/test-database.js';
import { VerifyExecutionChainHandler } from '../application/verify-execution-chain/verify-execution-chain.handler.js';
import { Ed25519AuditSigner } from '../../audit/infrastructure/ed25519-audit-signer.js';
import { ExecutionChainSealer } from './execution-chain-sealer.js';
import { ExecutionPurger, RETENTION_ACTOR } from './execution-purger.js';
import { GroupCommitExecutionRecorder } from './group-commit-execution-recorder.js';
import { TypeormExecutionReads } from './typeorm-execution-reads.js';
import { TypeormAuditLog } from '../../audit/infrastructure/typeorm-audit-log.js';

const DAY = 86_400_000;

class CountingMetrics extends WorkMetrics {
  approvalDecided(): void {}
  purged = 0;
  passes = 0;
  callEnded(): void {}
  interceptorRan(): void {}
  refreshEnded(): void {}
  recordsCommitted(): void {}
  mcpOperationEnded(): void {}
  mcpSessionEnded(): void {}
  purgeBatchCommitted(rows: number): void {
    this.purged += rows;
  }
  purgePassEnded(): void {
    this.passes += 1;
  }
  perSource(): void {}
  connections(): void {}
}

function execution(startedAt: Date, n: number): ExecutionRecord {
  return {
    id: randomUUID(),
    toolId: null,
    qualifiedName: 'ev__echo',
    sourceId: null,
    sourceName: 'ev',
    definitionHash: null,
    caller: { principalId: 'admin', principalName: 'admin' },
    channel: 'rest',
    arguments: { message: `call ${n}` },
    status: 'succeeded',
    isError: false,
    result: { content: [{ type: 'text', text: `Echo: call ${n}` }], truncated: false, originalBytes: 20 },
    error: null,
    attempts: 1,
    startedAt,
    durationMs: 1,
  };
}

/** The purger on a real PostgreSQL, with the recorder, the sealer and verify around it. */
describe('ExecutionPurger (real PostgreSQL)', () => {
  const dbName = `tp_purge_${randomBytes(6).toString('hex')}`;
  let dataSource: DataSource;
  let recorder: GroupCommitExecutionRecorder;
  let sealer: ExecutionChainSealer;
  let verify: VerifyExecutionChainHandler;
  const signer = new Ed25519AuditSigner(randomBytes(32));
  const metrics = new CountingMetrics();
  let now = new Date('2026-06-01T00:00:00Z');
  let purger: ExecutionPurger;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    dataSource = await migratedDataSource(withDatabase(testServerUrl(), dbName), { extra: { max: 5 } });
    const uow = new TypeormUnitOfWork(dataSource);
    recorder = new GroupCommitExecutionRecorder(dataSource);
    sealer = new ExecutionChainSealer(dataSource, signer, { intervalMs: 60_000 });
    verify = new VerifyExecutionChainHandler(new TypeormExecutionReads(uow), signer);
    const audit = new TypeormAuditLog(uow, { now: () => now }, { next: () => randomUUID() }, signer);
    purger = new ExecutionPurger(dataSource, uow, audit, signer, metrics, { now: () => now }, { retentionMs: 30 * DAY, intervalMs: 60_000, batch: 7 });
  });

  afterAll(async () => {
    await recorder?.close();
    if (dataSource?.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  const record = async (startedAt: Date[]) => {
    await Promise.all(startedAt.map((at, n) => recorder.record(execution(at, n))));
    await sealer.sealPending();
  };
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

  it('purges every link past the retention in batches, and the chain goes on from the anchor when none is left', async () => {
    await record(Array.from({ length: 30 }, (_, i) => daysAgo(40 - i / 10)));
    expect(await purger.purge()).toMatchObject({ purged: 30, batches: 5, stop: 'none' });
    expect(metrics).toMatchObject({ purged: 30, passes: 1 });
    const [counts] = await dataSource.query(`SELECT (SELECT count(*)::int FROM executions) AS executions, (SELECT count(*)::int FROM execution_chain) AS links`);
    expect(counts).toEqual({ executions: 0, links: 0 });

    // Nothing left of the chain but its anchor: the sealer links new records after it.
    await record([daysAgo(1), daysAgo(0)]);
    const [{ seqs }] = await dataSource.query(`SELECT array_agg(seq::int ORDER BY seq) AS seqs FROM execution_chain`);
    expect(seqs).toEqual([31, 32]);
    expect(await verify.execute()).toMatchObject({ intact: true, events: 2, head: { seq: 32 }, retention: { purgedThrough: 30, purgedCount: 30 } });

    const events = await dataSource.query(`SELECT actor, action, target_type, details FROM audit_events WHERE action = 'executions.purged'`);
    expect(events).toEqual([{ actor: RETENTION_ACTOR, action: 'executions.purged', target_type: 'executions', details: expect.objectContaining({ count: 30, links: { from: 1, to: 30 }, retention: '30d' }) }]);
  });

  it('keeps what is within the retention, and writes no event when nothing was purged', async () => {
    expect(await purger.purge()).toMatchObject({ purged: 0, stop: 'retained' });
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'executions.purged'`);
    expect(n).toBe(1);
  });

  it('stops before a link whose record is gone, leaving the evidence to verify', async () => {
    const [first] = await dataSource.query(`SELECT execution_id FROM execution_chain WHERE seq = 32`);
    await dataSource.query('DELETE FROM executions WHERE id = $1', [first.execution_id]);
    now = new Date(now.getTime() + 60 * DAY);
    expect(await purger.purge()).toMatchObject({ purged: 1, stop: 'broken' });
    expect(await verify.execute()).toMatchObject({ intact: false, firstProblem: { seq: 32, problem: 'missing' }, retention: { purgedThrough: 31 } });
  });

  it('does nothing while another process holds the purge lock, and nothing after shutdown', async () => {
    const other = dataSource.createQueryRunner();
    await other.connect();
    await other.query('SELECT pg_advisory_lock(7296305112042)');
    expect(await purger.purge()).toMatchObject({ purged: 0, stop: 'busy' });
    await other.query('SELECT pg_advisory_unlock(7296305112042)');
    await other.release();
    await purger.onModuleDestroy();
    expect(await purger.purge()).toMatchObject({ purged: 0, stop: 'stopping' });
  });
});

import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SharedRateLimits1796900000000 } from '../../../../migrations/1796900000000-shared-rate-limits.js';
import { adminQuery, testServerUrl, withDatabase } from '../../../../test/helpers/test-database.js';
import { PostgresRateBuckets } from './postgres-rate-buckets.js';

describe('rate-limit buckets in PostgreSQL (the test server)', () => {
  const dbName = `tp_buckets_${randomBytes(4).toString('hex')}`;
  const migration = new SharedRateLimits1796900000000();
  // Two connection pools stand for two Toolplane processes.
  let one: DataSource;
  let two: DataSource;

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    const url = withDatabase(testServerUrl(), dbName);
    one = await new DataSource({ type: 'postgres', url, extra: { max: 8 } }).initialize();
    two = await new DataSource({ type: 'postgres', url, extra: { max: 8 } }).initialize();
    await migration.up(one.createQueryRunner());
  });

  afterAll(async () => {
    await one?.destroy();
    await two?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('grants a full bucket once, whatever the number of processes and concurrent takers', async () => {
    const a = new PostgresRateBuckets(one);
    const b = new PostgresRateBuckets(two);
    // 600 a minute: 100 tokens, ten a second.
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 160 }, (_, i) => (i % 2 ? a : b).take('tool:x__burst', 600)));
    const refilled = Math.ceil(((performance.now() - started) / 1000) * 10);
    const granted = answers.filter((answer) => answer.allowed).length;
    expect(granted).toBeGreaterThanOrEqual(100);
    // The full bucket, and no more than what refilled while they ran (ten a second).
    expect(granted).toBeLessThanOrEqual(100 + refilled);
    expect(granted).toBeLessThan(160);
    const refused = answers.find((answer) => !answer.allowed)!;
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(100);
  });

  it('refills at the rate, and starts afresh when the limit changes', async () => {
    const a = new PostgresRateBuckets(one);
    // 60 a minute: ten tokens, one a second.
    for (let i = 0; i < 10; i++) expect((await a.take('principal:p', 60)).allowed).toBe(true);
    const empty = await a.take('principal:p', 60);
    expect(empty.allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, empty.retryAfterMs + 20));
    expect((await a.take('principal:p', 60)).allowed).toBe(true);
    expect((await a.take('principal:p', 60)).allowed).toBe(false);
    // A new limit is a new budget.
    expect(await a.take('principal:p', 120)).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('limits per process with its own buckets while the database cannot answer', async () => {
    const broken = new DataSource({ type: 'postgres', url: withDatabase(testServerUrl(), dbName) });
    const buckets = new PostgresRateBuckets(broken); // never initialized: every query fails
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await buckets.take('tool:y', 6));
    expect(answers.map((answer) => answer.allowed)).toEqual([true, false, false]);
  });

  it('drops its table on the way down', async () => {
    const runner = one.createQueryRunner();
    await migration.down(runner);
    expect(await runner.hasTable('rate_limit_buckets')).toBe(false);
    await migration.up(runner);
    await runner.release();
  });
});

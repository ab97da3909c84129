import pg from 'pg';
import { testServerUrl } from '../../../test/helpers/test-database.js';
import { runPrepared } from './prepared-statement.js';

describe('runPrepared (on the test PostgreSQL)', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: testServerUrl() });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
  });

  it('prepares the statement under its name once and runs it with each call\'s values', async () => {
    const text = 'SELECT $1::int + $2::int AS sum, $3::text[] AS names';
    expect((await runPrepared(client, 'tp-spec-sum', text, [1, 2, ['a', 'b']])).rows).toEqual([{ sum: 3, names: ['a', 'b'] }]);
    expect((await runPrepared(client, 'tp-spec-sum', text, [40, 2, []])).rows).toEqual([{ sum: 42, names: [] }]);
    const prepared = await client.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'tp-spec-sum'`);
    expect(prepared.rows).toEqual([{ n: 1 }]);
  });

  it("rejects with pg's DatabaseError when the server refuses, and leaves the connection usable", async () => {
    const refused = await runPrepared(client, 'tp-spec-bad', 'SELECT 1 / $1::int', [0]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(pg.DatabaseError);
    expect((refused as pg.DatabaseError).code).toBe('22012');
    expect((await runPrepared(client, 'tp-spec-one', 'SELECT $1::text AS v', ['still here'])).rows).toEqual([{ v: 'still here' }]);
  });

  it('rejects when the connection has ended, without throwing', async () => {
    const ended = new pg.Client({ connectionString: testServerUrl() });
    await ended.connect();
    await ended.end();
    await expect(runPrepared(ended, 'tp-spec-ended', 'SELECT 1', [])).rejects.toThrow();
  });
});

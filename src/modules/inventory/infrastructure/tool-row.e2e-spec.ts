import fc from 'fast-check';
import pg from 'pg';
import { testServerUrl, withDatabase } from '../../../../test/helpers/test-database.js';
import { isoTime } from './tool-row.js';

/** 1970 to 2200, in microseconds since the epoch: PostgreSQL keeps microseconds, a Date milliseconds. */
const MAX_MICROS = 7_258_118_400_000_000;

describe('isoTime', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: withDatabase(testServerUrl(), 'postgres') });
    await client.connect();
    // Not UTC, with a half-hour offset: the text must not depend on the session's time zone.
    await client.query(`SET TimeZone TO 'Asia/Kolkata'`);
  });

  afterAll(async () => {
    await client.end();
  });

  it('writes a timestamptz exactly as Date.prototype.toISOString writes its millisecond', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: MAX_MICROS }), { minLength: 1, maxLength: 200 }), async (micros) => {
        const { rows } = await client.query<{ at: string }>(
          `SELECT ${isoTime('x.at')} AS at FROM unnest($1::bigint[]) WITH ORDINALITY AS m(micros, n)
             CROSS JOIN LATERAL (SELECT 'epoch'::timestamptz + m.micros * interval '1 microsecond' AS at) x
            ORDER BY m.n`,
          [micros.map(String)],
        );
        expect(rows.map((row) => row.at)).toEqual(micros.map((us) => new Date(Math.floor(us / 1000)).toISOString()));
      }),
      { numRuns: 50 },
    );
  });

  it('cuts microseconds rather than rounding them, at the edges of a second and a day', async () => {
    const cases: [string, string][] = [
      ['2026-11-27 23:59:59.999999+00', '2026-11-27T23:59:59.999Z'],
      ['2026-11-27 00:00:00.000999+00', '2026-11-27T00:00:00.000Z'],
      ['2026-11-27 05:29:59.029+05:30', '2026-11-26T23:59:59.029Z'],
      ['2024-02-29 12:00:00+00', '2024-02-29T12:00:00.000Z'],
    ];
    const { rows } = await client.query<{ at: string }>(
      `SELECT ${isoTime('x.at')} AS at FROM unnest($1::timestamptz[]) WITH ORDINALITY AS x(at, n) ORDER BY x.n`,
      [cases.map(([given]) => given)],
    );
    expect(rows.map((row) => row.at)).toEqual(cases.map(([, written]) => written));
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { adminQuery, migratedDataSource, testServerUrl, withDatabase } from '../../../../test/helpers/test-database.js';
import { isUsable } from '../domain/tool-usability.js';
import { SqlCatalogReader } from './sql-catalog-reader.js';
import { LIVE_TOOL, USABLE_TOOL } from './usable-tool-sql.js';

/** Any JSON value PostgreSQL's json types can hold (no NUL in a string), as readOnlyHint might be declared. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom('true', 'false', 'yes', ''),
    fc.string().filter((s) => !s.includes('\u0000')),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string().filter((s) => !s.includes('\u0000')), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** The annotations of a tool: none at all, an object without readOnlyHint, or one with any JSON value for it. */
const annotations = fc.oneof(
  fc.constant(null),
  fc.record({ title: fc.constant('t') }),
  fc.record({ readOnlyHint: jsonValue }),
  fc.record({ readOnlyHint: jsonValue, destructiveHint: fc.boolean() }),
);

const source = fc.record({ enabled: fc.boolean(), readOnly: fc.boolean(), deleted: fc.boolean() });
const tool = fc.record({
  source: fc.nat(),
  status: fc.constantFrom('active' as const, 'deprecated' as const),
  enabled: fc.boolean(),
  unusableReason: fc.option(fc.constantFrom('its inputSchema is over 256 KiB', 'x'), { nil: null }),
  annotations,
  reviewState: fc.constantFrom('approved' as const, 'pending_review' as const, 'rejected' as const),
  retired: fc.boolean(),
});

describe('the usable rule in SQL (USABLE_TOOL) and in the domain (isUsable)', () => {
  const dbName = `tp_usable_${randomBytes(4).toString('hex')}`;
  let db: DataSource;

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    db = await migratedDataSource(withDatabase(testServerUrl(), dbName));
  });

  afterAll(async () => {
    await db?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('selects exactly the live tools isUsable accepts, as the catalog reads them, over any state of tools and sources', async () => {
    const reader = new SqlCatalogReader(db);
    await fc.assert(
      fc.asyncProperty(fc.array(source, { minLength: 1, maxLength: 4 }), fc.array(tool, { minLength: 1, maxLength: 12 }), async (sources, tools) => {
        await db.query('DELETE FROM source_tools');
        await db.query('DELETE FROM sources');
        const sourceIds = sources.map(() => randomUUID());
        for (const [i, s] of sources.entries()) {
          await db.query(
            `INSERT INTO sources (id, name, transport, lifecycle, read_only, timeout_ms, max_concurrency, refresh_interval_seconds, circuit_breaker, enabled, created_at, updated_at, deleted_at)
             VALUES ($1, $2, 'stdio', 'transient', $3, 1000, 1, 0, '{"failureThreshold":5,"resetTimeoutMs":30000}', $4, now(), now(), CASE WHEN $5 THEN now() END)`,
            [sourceIds[i], `s${i}`, s.readOnly, s.enabled, s.deleted],
          );
        }
        for (const [i, t] of tools.entries()) {
          const name = `t${i}`;
          // As the inventory writes a tool: the declared object, and the annotations' own column.
          const definition = { name, inputSchema: { type: 'object' }, ...(t.annotations !== null ? { annotations: t.annotations } : {}) };
          await db.query(
            `INSERT INTO source_tools (id, source_id, name, qualified_name, annotations, definition, definition_hash, status, enabled, unusable_reason, first_seen_at, last_seen_at, updated_at, retired_at, review_state)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6::json, 'h', $7, $8, $9, now(), now(), now(), CASE WHEN $10 THEN now() END, $11)`,
            [
              randomUUID(),
              sourceIds[t.source % sources.length],
              name,
              `s${t.source % sources.length}__${name}`,
              t.annotations === null ? null : JSON.stringify(t.annotations),
              JSON.stringify(definition),
              t.status,
              t.enabled,
              t.unusableReason,
              t.retired,
              t.reviewState,
            ],
          );
        }
        const selected: { qualified_name: string }[] = await db.query(
          `SELECT t.qualified_name FROM source_tools t JOIN sources s ON s.id = t.source_id WHERE ${LIVE_TOOL} AND ${USABLE_TOOL} ORDER BY 1`,
        );
        const { tools: live } = await reader.readAll();
        const accepted = live.filter(isUsable).map((t) => t.qualifiedName);
        expect(selected.map((row) => row.qualified_name).sort()).toEqual(accepted.sort());
        // And the reader reads the live tools only.
        const liveRows: { n: number }[] = await db.query(`SELECT count(*)::int AS n FROM source_tools t JOIN sources s ON s.id = t.source_id WHERE ${LIVE_TOOL}`);
        expect(live).toHaveLength(liveRows[0]!.n);
      }),
      { numRuns: 150 },
    );
  });
});

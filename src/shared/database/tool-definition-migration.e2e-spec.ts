import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import { adminQuery, migratedDataSource, testServerUrl, withDatabase } from '../../../test/helpers/test-database.js';
import { MIGRATIONS } from './schema.js';

/** The upgrade of stored tools to definitions as declared, and back, on the test PostgreSQL. */
describe('migration ToolDefinitionAsDeclared', () => {
  const dbName = `tp_migrate_${randomBytes(4).toString('hex')}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    dataSource = await migratedDataSource(withDatabase(testServerUrl(), dbName));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  /** Undoes every migration from ToolDefinitionAsDeclared on (the later ones first). */
  const undoToBefore = async () => {
    const index = MIGRATIONS.findIndex((migration) => migration.name === 'ToolDefinitionAsDeclared1796700000000');
    expect(index).toBeGreaterThan(0);
    for (let i = MIGRATIONS.length - 1; i >= index; i--) {
      // TypeORM's undo ignores a migration's own `transaction = false`: such a one is undone outside any.
      const outside = (new MIGRATIONS[i]() as MigrationInterface).transaction === false;
      await dataSource.undoLastMigration({ transaction: outside ? 'none' : 'each' });
    }
  };

  it('rebuilds each stored tool as a definition, keeps nulls inside schemas, and goes back', async () => {
    await undoToBefore();
    const sourceId = randomUUID();
    await dataSource.query(
      `INSERT INTO sources (id, name, transport, lifecycle, timeout_ms, max_concurrency, refresh_interval_seconds, circuit_breaker, created_at, updated_at)
       VALUES ($1, 'old', 'stdio', 'transient', 1000, 1, 0, '{}', now(), now())`,
      [sourceId],
    );
    const schema = { type: 'object', properties: { note: { type: ['string', 'null'], default: null } } };
    await dataSource.query(
      `INSERT INTO source_tools (id, source_id, name, qualified_name, title, description, input_schema, output_schema, annotations, definition_hash, status, enabled, first_seen_at, last_seen_at, updated_at)
       VALUES ($1, $2, 'note', 'old__note', NULL, 'Takes a note', $3, NULL, $4, 'h', 'active', true, now(), now(), now())`,
      [randomUUID(), sourceId, schema, { readOnlyHint: true }],
    );

    await dataSource.runMigrations();
    const [row] = await dataSource.query(`SELECT definition, declared_hash FROM source_tools WHERE qualified_name = 'old__note'`);
    expect(row.definition).toEqual({ name: 'note', description: 'Takes a note', inputSchema: schema, annotations: { readOnlyHint: true } });
    // Not known as declared yet: the next refresh stores the upstream's own text.
    expect(row.declared_hash).toBe('');

    await undoToBefore();
    const [back] = await dataSource.query(`SELECT input_schema, output_schema FROM source_tools WHERE qualified_name = 'old__note'`);
    expect(back).toEqual({ input_schema: schema, output_schema: null });
    await dataSource.runMigrations();
  });
});

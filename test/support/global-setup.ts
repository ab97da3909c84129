import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/shared/database/embedded-postgres';

/**
 * One real PostgreSQL for the whole run: the given DATABASE_URL, or an embedded cluster
 * in a temporary directory. Each e2e suite then creates its own database on it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TOOLPLANE_TEST_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-test-db-'));
  const database = await startEmbeddedPostgres({ dataDir, environment: process.env });
  process.env.TOOLPLANE_TEST_DATABASE_URL = database.url;
  (globalThis as Record<string, unknown>).__TOOLPLANE_TEST_DB__ = { database, dataDir };
}

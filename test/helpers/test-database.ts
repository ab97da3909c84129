import pg from 'pg';
import { DataSource, type Logger, type LoggerOptions } from 'typeorm';
import { schemaOptions, type Entities } from '../../src/shared/database/database.js';

/** The test PostgreSQL server the jest global setup started (or DATABASE_URL). */
export function testServerUrl(): string {
  const url = process.env.TOOLPLANE_TEST_DATABASE_URL;
  if (!url) throw new Error('TOOLPLANE_TEST_DATABASE_URL is not set: run the tests through jest (global setup)');
  return url;
}

/** The same server URL, pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs one statement (CREATE/DROP DATABASE …) on the server's maintenance database. */
export async function adminQuery(sql: string, serverUrl = testServerUrl()): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A DataSource on `url` with Toolplane's schema, migrated as Toolplane migrates it at start
 * (the entities a spec's code maps, the pool's size, a logger, …).
 */
export async function migratedDataSource(
  url: string,
  { entities, ...overrides }: { entities?: Entities; extra?: Record<string, unknown>; logging?: LoggerOptions; logger?: Logger } = {},
): Promise<DataSource> {
  const dataSource = new DataSource({ ...schemaOptions(url, entities), ...overrides });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

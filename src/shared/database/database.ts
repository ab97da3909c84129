import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions, type EntitySchema } from 'typeorm';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';
import { MIGRATIONS } from './schema.js';

/** The ORM entities the modules map (each module declares its own). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type Entities = readonly (Function | EntitySchema)[];

export interface Database {
  dataSource: DataSource;
  /** The connection URL, for connections of their own (the catalog-change listener). */
  url: string;
  /** The migrations this opening applied (none when the schema was current). */
  appliedMigrations: string[];
  close(): Promise<void>;
}

/** The DataSource of the database Toolplane opened at start (the DataSource's own token is TypeormUnitOfWork). */
export const DATABASE = Symbol('DATABASE');

/** Connects to `databaseUrl` or starts the embedded cluster in `dataDir`, then applies pending migrations. */
export async function openDatabase(config: { databaseUrl?: string; dataDir: string; environment?: NodeJS.ProcessEnv }, entities: Entities = []): Promise<Database> {
  const logger = new Logger('database');
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    logger.log(`starting the embedded PostgreSQL in ${config.dataDir}`);
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: (m) => logger.debug(m), environment: config.environment });
    url = embedded.url;
  }
  const dataSource = new DataSource({ ...schemaOptions(url, entities), extra: { max: 20, application_name: 'toolplane' } });
  let applied: { name: string }[];
  try {
    await dataSource.initialize();
    applied = await migrateExclusively(dataSource);
    if (applied.length > 0) logger.log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
    throw error;
  }
  return {
    dataSource,
    url,
    appliedMigrations: applied.map((m) => m.name),
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
    },
  };
}

/**
 * Toolplane's schema on `url`: the modules' entities, and its migrations each in a transaction of
 * its own unless it says otherwise (an index built concurrently runs outside any).
 */
export function schemaOptions(url: string, entities: Entities = []) {
  return {
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
  } satisfies DataSourceOptions;
}

/** Several Toolplane processes may start together on one database: one migrates at a time. */
async function migrateExclusively(dataSource: DataSource) {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', ['toolplane:migrations']);
    return await dataSource.runMigrations();
  } finally {
    await lock.query('SELECT pg_advisory_unlock(hashtext($1))', ['toolplane:migrations']).catch(() => undefined);
    await lock.release();
  }
}

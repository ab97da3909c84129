import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { countOf } from '../output.js';

export function registerServerCommands(program: Command): void {
  program
    .command('serve')
    .description('Run Toolplane in this process, as "npm start" does (settings from the environment: PORT, HOST, DATABASE_URL, TOOLPLANE_*)')
    .addHelpText('after', '\nSee docs/operations.md for every setting. Stops gracefully on SIGTERM or SIGINT.')
    .action(async () => {
      // Loaded only here: the server's modules are large, and no other command needs them.
      await import('reflect-metadata');
      const { runToolplane } = await import('../../run-toolplane.js');
      await runToolplane();
      // Runs until a signal stops it (runToolplane exits the process then).
      await new Promise<never>(() => undefined);
    });

  program
    .command('migrate')
    .description('Apply pending database migrations (DATABASE_URL, or the embedded database in TOOLPLANE_DATA_DIR), then exit')
    .action(async () => {
      await import('reflect-metadata');
      const { ConfigError, loadConfig } = await import('../../config/app-config.js');
      const { openDatabase } = await import('../../shared/database/database.js');
      let config;
      try {
        config = loadConfig();
      } catch (error) {
        if (error instanceof ConfigError) {
          process.stderr.write(error.message + '\n');
          process.exitCode = EXIT.usage;
          return;
        }
        throw error;
      }
      const { Logger } = await import('@nestjs/common');
      const { PinoLogger } = await import('../../shared/logging/pino-logger.js');
      Logger.overrideLogger(new PinoLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
      const database = await openDatabase({ ...config, environment: process.env });
      try {
        const applied = database.appliedMigrations;
        process.stdout.write(applied.length > 0 ? `applied ${countOf(applied.length, 'migration')}: ${applied.join(', ')}\n` : 'the database is up to date: no pending migration\n');
      } finally {
        await database.close();
      }
    });
}

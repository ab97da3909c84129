import { startToolplane } from './bootstrap.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { PinoLogger } from './shared/logging/pino-logger.js';

const SHUTDOWN_DEADLINE_MS = 30_000;

/**
 * Runs Toolplane as `npm start` does: settings from the environment, start, and a graceful stop on
 * SIGTERM or SIGINT. Invalid settings exit with 2, a failed start with 1.
 */
export async function runToolplane(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = new PinoLogger(config.logLevel);
  const started = performance.now();
  const toolplane = await startToolplane(config, logger).catch((error: unknown) => {
    logger.fatal(error instanceof Error ? error.message : String(error), 'startup');
    process.exit(1);
  });
  const adminKey = toolplane.adminKeyFile ? `the admin key in ${toolplane.adminKeyFile}` : 'the admin key from TOOLPLANE_ADMIN_KEY';
  logger.log(
    `Toolplane ready on ${toolplane.url} in ${Math.round(performance.now() - started)} ms: console at ${toolplane.url}/console (sign in with ${adminKey}), API docs at ${toolplane.url}/docs`,
    'startup',
  );
  if (config.authDisabled) logger.warn('TOOLPLANE_AUTH=off: every request is served without credentials', 'access');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: shutting down`, 'shutdown');
    const deadline = setTimeout(() => {
      logger.error('shutdown deadline passed; exiting', undefined, 'shutdown');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    const stopStarted = performance.now();
    toolplane.close().then(
      () => {
        logger.log(`Toolplane stopped in ${Math.round(performance.now() - stopStarted)} ms`, 'shutdown');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(error instanceof Error ? error.message : String(error), undefined, 'shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}


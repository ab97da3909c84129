import { RecordingCommandBus } from '../../../shared/testing/recording-command-bus.js';
import type { ApiKey } from '../../access/domain/api-key.js';
import { Sha256ApiKeySecrets } from '../../access/infrastructure/api-key-secret.js';
import { InMemoryApiKeyRepository } from '../../access/testing/in-memory-api-key-repository.js';
import { sourcesFixture, type SourcesFixtureOptions } from '../../sources/testing/sources-fixture.js';
import { ApplyConfigHandler } from '../application/apply-config/apply-config.handler.js';
import { ConfigPlanner } from '../application/apply-config/config-planner.js';
import { KeyPlanner } from '../application/apply-config/key-planner.js';
import { RecordingConfigLock } from './recording-config-lock.js';

/**
 * Configuration as code over the sources fixture: the planners real, API keys in memory, the
 * commands an apply runs recorded (and not run) by the command bus.
 */
export function configurationFixture(options: SourcesFixtureOptions & { keys?: ApiKey[] } = {}) {
  const f = sourcesFixture(options);
  const keys = new InMemoryApiKeyRepository(options.keys);
  const lock = new RecordingConfigLock();
  const commands = new RecordingCommandBus();
  const planner = new ConfigPlanner(f.checker, f.sources);
  const keyPlanner = new KeyPlanner(keys, new Sha256ApiKeySecrets(), f.secrets, f.host);
  const applier = new ApplyConfigHandler(planner, keyPlanner, f.clock, lock, commands.bus, f.audit, f.uow);
  return { ...f, keys, lock, commands, planner, keyPlanner, applier };
}

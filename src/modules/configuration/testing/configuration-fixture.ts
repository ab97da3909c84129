import { RecordingCommandBus } from '../../../shared/testing/recording-command-bus.js';
import type { ApiKey } from '../../access/domain/api-key.js';
import type { Group } from '../../groups/domain/group.js';
import { InMemoryGroupRepository } from '../../groups/testing/in-memory-group-repository.js';
import { InterceptorSpecChecker } from '../../interceptors/application/interceptor-spec-checker.js';
import type { Interceptor } from '../../interceptors/domain/interceptor.js';
import { InMemoryInterceptorRepository } from '../../interceptors/testing/in-memory-interceptor-repository.js';
import { Sha256ApiKeySecrets } from '../../access/infrastructure/api-key-secret.js';
import { InMemoryApiKeyRepository } from '../../access/testing/in-memory-api-key-repository.js';
import { sourcesFixture, type SourcesFixtureOptions } from '../../sources/testing/sources-fixture.js';
import { ApplyConfigHandler } from '../application/apply-config/apply-config.handler.js';
import { ConfigPlanner } from '../application/apply-config/config-planner.js';
import { GroupPlanner } from '../application/apply-config/group-planner.js';
import { InterceptorPlanner } from '../application/apply-config/interceptor-planner.js';
import { KeyPlanner } from '../application/apply-config/key-planner.js';
import { RecordingConfigLock } from './recording-config-lock.js';

/**
 * Configuration as code over the sources fixture: the planners real, groups, interceptors and API keys in memory, the
 * commands an apply runs recorded (and not run) by the command bus.
 */
export function configurationFixture(options: SourcesFixtureOptions & { keys?: ApiKey[]; groups?: Group[]; interceptors?: Interceptor[] } = {}) {
  const f = sourcesFixture(options);
  const keys = new InMemoryApiKeyRepository(options.keys);
  const groups = new InMemoryGroupRepository();
  for (const group of options.groups ?? []) groups.groups.set(group.name, group);
  const interceptors = new InMemoryInterceptorRepository(options.interceptors);
  const lock = new RecordingConfigLock();
  const commands = new RecordingCommandBus();
  const planner = new ConfigPlanner(f.checker, f.sources);
  const groupPlanner = new GroupPlanner(groups);
  const interceptorPlanner = new InterceptorPlanner(interceptors, new InterceptorSpecChecker(f.secrets, f.remoteHosts));
  const keyPlanner = new KeyPlanner(keys, new Sha256ApiKeySecrets(), f.secrets, f.host);
  const applier = new ApplyConfigHandler(planner, groupPlanner, interceptorPlanner, keyPlanner, f.clock, lock, commands.bus, f.audit, f.uow);
  return { ...f, keys, groups, interceptors, lock, commands, planner, groupPlanner, interceptorPlanner, keyPlanner, applier };
}

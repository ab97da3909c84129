import { InterceptorsChanged } from '../../../shared/catalog-events.js';
import { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { RecordingCatalogNotifier } from '../../../shared/testing/recording-catalog-notifier.js';
import { RecordingEventBus } from '../../../shared/testing/recording-event-bus.js';
import { SequentialIds } from '../../../shared/testing/sequential-ids.js';
import { NamedResourceWriting } from '../../audit/application/named-resource-writes.js';
import { RecordingAuditLog } from '../../audit/testing/recording-audit-log.js';
import { InMemorySecretRepository } from '../../secrets/testing/in-memory-secret-repository.js';
import { FakeRemoteHostCheck } from '../../sources/testing/fake-remote-host-check.js';
import { InterceptorDefinitions } from '../application/interceptor-definitions.js';
import { InterceptorSpecChecker } from '../application/interceptor-spec-checker.js';
import { InterceptorWrites } from '../application/interceptor-writes.js';
import type { Interceptor } from '../domain/interceptor.js';
import { InMemoryInterceptorRepository } from './in-memory-interceptor-repository.js';

export const NOW = '2026-03-01T12:00:00.000Z';

/** Records what was published, and delivers InterceptorsChanged to the definitions as the event bus does (at once). */
class DeliveringEventBus extends RecordingEventBus {
  constructor(private readonly definitions: InterceptorDefinitions) {
    super();
  }

  override publish(event: object): void {
    super.publish(event);
    if (event instanceof InterceptorsChanged) void this.definitions.handle(event);
  }
}

/**
 * The interceptors module's ports for its handlers, in memory: the audit log refuses events outside
 * the unit of work; the secrets store holds `secrets`; the host check allows every host until a
 * spec denies one; the definitions read the repository (call `definitions.onModuleInit()` first).
 */
export function interceptorsFixture(options: { interceptors?: Interceptor[]; secrets?: Record<string, string> } = {}) {
  const uow = new DirectUnitOfWork();
  const interceptors = new InMemoryInterceptorRepository(options.interceptors);
  const secrets = new InMemorySecretRepository(options.secrets);
  const hosts = new FakeRemoteHostCheck();
  const definitions = new InterceptorDefinitions(interceptors);
  const audit = new RecordingAuditLog(uow);
  const clock = new FixedClock(NOW);
  const ids = new SequentialIds('interceptor-');
  const events = new DeliveringEventBus(definitions);
  const notifier = new RecordingCatalogNotifier();
  return {
    interceptors,
    uow,
    audit,
    clock,
    ids,
    events,
    notifier,
    writes: new InterceptorWrites(interceptors, definitions, new NamedResourceWriting(audit, uow, clock, ids, events.bus, notifier)),
    secrets,
    hosts,
    checker: new InterceptorSpecChecker(secrets, hosts),
    definitions,
  };
}

import { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { RecordingEventBus } from '../../../shared/testing/recording-event-bus.js';
import { SequentialIds } from '../../../shared/testing/sequential-ids.js';
import { RecordingAuditLog } from '../../audit/testing/recording-audit-log.js';
import type { ApiKey } from '../domain/api-key.js';
import { Sha256ApiKeySecrets } from '../infrastructure/api-key-secret.js';
import { InMemoryApiKeyRepository } from './in-memory-api-key-repository.js';

/** The fixture's clock starts here, after the keys the builders make. */
export const NOW = '2026-03-01T12:00:00.000Z';

/** The access module's ports for its handlers: keys in memory, the real key secrets (random, SHA-256), an audit log that refuses events outside the unit of work. */
export function accessFixture(keys: readonly ApiKey[] = []) {
  const uow = new DirectUnitOfWork();
  return {
    keys: new InMemoryApiKeyRepository(keys),
    secrets: new Sha256ApiKeySecrets(),
    uow,
    audit: new RecordingAuditLog(uow),
    clock: new FixedClock(NOW),
    ids: new SequentialIds('key-'),
    events: new RecordingEventBus(),
  };
}

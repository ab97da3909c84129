import { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { RecordingCatalogNotifier } from '../../../shared/testing/recording-catalog-notifier.js';
import { RecordingEventBus } from '../../../shared/testing/recording-event-bus.js';
import { SequentialIds } from '../../../shared/testing/sequential-ids.js';
import { NamedResourceWriting } from '../../audit/application/named-resource-writes.js';
import { RecordingAuditLog } from '../../audit/testing/recording-audit-log.js';
import { GroupWrites } from '../application/group-writes.js';
import { InMemoryGroupRepository } from './in-memory-group-repository.js';

export const NOW = '2026-03-01T12:00:00.000Z';

/** The groups module's ports for its handlers, in memory, and its writes over them; the audit log refuses events outside the unit of work. */
export function groupsFixture() {
  const uow = new DirectUnitOfWork();
  const ports = {
    groups: new InMemoryGroupRepository(),
    uow,
    audit: new RecordingAuditLog(uow),
    clock: new FixedClock(NOW),
    ids: new SequentialIds('group-'),
    events: new RecordingEventBus(),
    notifier: new RecordingCatalogNotifier(),
  };
  const { groups, audit, clock, ids, events, notifier } = ports;
  return { ...ports, writes: new GroupWrites(groups, new NamedResourceWriting(audit, uow, clock, ids, events.bus, notifier)) };
}

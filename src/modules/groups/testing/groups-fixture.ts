import { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { RecordingCatalogNotifier } from '../../../shared/testing/recording-catalog-notifier.js';
import { RecordingEventBus } from '../../../shared/testing/recording-event-bus.js';
import { SequentialIds } from '../../../shared/testing/sequential-ids.js';
import { NamedResourceWriting } from '../../audit/application/named-resource-writes.js';
import { RecordingAuditLog } from '../../audit/testing/recording-audit-log.js';
import { CreateGroupCommand } from '../application/create-group/create-group.command.js';
import { CreateGroupHandler } from '../application/create-group/create-group.handler.js';
import { DeleteGroupCommand } from '../application/delete-group/delete-group.command.js';
import { DeleteGroupHandler } from '../application/delete-group/delete-group.handler.js';
import { GroupWrites } from '../application/group-writes.js';
import { UpdateGroupCommand } from '../application/update-group/update-group.command.js';
import { UpdateGroupHandler } from '../application/update-group/update-group.handler.js';
import { InMemoryGroupRepository } from './in-memory-group-repository.js';

export const NOW = '2026-03-01T12:00:00.000Z';

/**
 * The groups module's ports for its handlers, in memory, and its three commands as an
 * administrator gives them, over the module's writes; the audit log refuses events outside the unit of work.
 */
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
  const writes = new GroupWrites(groups, new NamedResourceWriting(audit, uow, clock, ids, events.bus, notifier));
  const [create, update, remove] = [new CreateGroupHandler(writes), new UpdateGroupHandler(writes), new DeleteGroupHandler(writes)];
  return {
    ...ports,
    create: (input: Record<string, unknown>) => create.execute(new CreateGroupCommand(input, 'admin')),
    update: (name: string, input: Record<string, unknown>) => update.execute(new UpdateGroupCommand(name, input, 'admin')),
    remove: (name: string) => remove.execute(new DeleteGroupCommand(name, 'admin')),
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { CatalogChangeNotifier, GroupsChanged } from '../../../shared/catalog-events.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../shared/unit-of-work.js';
import { NamedResourceWrites } from '../../audit/application/named-resource-writes.js';
import { AuditLog } from '../../audit/domain/audit-event.js';
import { GroupRepository, type GroupSpec } from '../domain/group.js';
import { GROUP_FIELDS } from '../domain/group-spec.js';
import { groupNameTaken, groupNotFound } from './group-errors.js';

/** The audited writes of tool groups: each change heard by every process's group views. */
@Injectable()
export class GroupWrites extends NamedResourceWrites<GroupSpec> {
  constructor(
    @Inject(GroupRepository) groups: GroupRepository,
    @Inject(AuditLog) audit: AuditLog,
    @Inject(UnitOfWork) uow: UnitOfWork,
    @Inject(Clock) clock: Clock,
    @Inject(IdGenerator) ids: IdGenerator,
    @Inject(EventBus) events: EventBus,
    @Inject(CatalogChangeNotifier) notifier: CatalogChangeNotifier,
  ) {
    const kind = {
      noun: 'group',
      notFound: groupNotFound,
      taken: groupNameTaken,
      auditForm: (group: GroupSpec) => Object.fromEntries(GROUP_FIELDS.map((field) => [field, group[field]])),
      announce: (name: string) => notifier.notifyGroupChanged(name),
      changed: async (name: string) => events.publish(new GroupsChanged(name)),
    } as const;
    super(kind, groups, audit, uow, clock, ids);
  }
}

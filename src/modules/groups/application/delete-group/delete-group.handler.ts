import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, GroupsChanged } from '../../../../shared/catalog-events.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { GroupRepository } from '../../domain/group.js';
import { groupNotFound } from '../group-errors.js';
import { viewOf, type GroupView } from '../group-view.js';
import { DeleteGroupCommand } from './delete-group.command.js';

@CommandHandler(DeleteGroupCommand)
export class DeleteGroupHandler implements ICommandHandler<DeleteGroupCommand, GroupView> {
  constructor(
    @Inject(GroupRepository) private readonly groups: GroupRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ name, actor }: DeleteGroupCommand): Promise<GroupView> {
    const group = await this.uow.run(async () => {
      const found = await this.groups.findByName(name, { lock: true });
      if (!found) throw groupNotFound(name);
      await this.groups.delete(found.id);
      await this.audit.record({ actor, action: 'group.removed', targetType: 'group', targetId: found.id, targetName: found.name, details: {} });
      await this.notifier.notifyGroupChanged(found.name);
      return found;
    });
    this.events.publish(new GroupsChanged(name));
    return viewOf(group);
  }
}

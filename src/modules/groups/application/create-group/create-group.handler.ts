import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, GroupsChanged } from '../../../../shared/catalog-events.js';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { GroupRepository, type Group, type GroupSpec } from '../../domain/group.js';
import { checkGroupSpec } from '../../domain/group-spec.js';
import { groupNameTaken } from '../group-errors.js';
import { viewOf, type GroupView } from '../group-view.js';
import { CreateGroupCommand } from './create-group.command.js';

@CommandHandler(CreateGroupCommand)
export class CreateGroupHandler implements ICommandHandler<CreateGroupCommand, GroupView> {
  constructor(
    @Inject(GroupRepository) private readonly groups: GroupRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ input, actor, shapeProblems }: CreateGroupCommand): Promise<GroupView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const spec = checkGroupSpec(input, problems) as GroupSpec;
    problems.throwIfAny('The group is invalid.');
    const now = this.clock.now();
    const group: Group = { id: this.ids.next(), ...spec, createdAt: now, updatedAt: now, createdBy: actor, updatedBy: actor, version: 1 };
    await this.uow.run(async () => {
      if (await this.groups.findByName(group.name, { lock: true })) throw groupNameTaken(group.name);
      await this.groups.insert(group);
      await this.audit.record({ actor, action: 'group.created', targetType: 'group', targetId: group.id, targetName: group.name, details: { ...spec } });
      await this.notifier.notifyGroupChanged(group.name);
    });
    this.events.publish(new GroupsChanged(group.name));
    return viewOf(group);
  }
}

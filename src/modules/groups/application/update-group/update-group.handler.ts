import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, GroupsChanged } from '../../../../shared/catalog-events.js';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { GroupRepository, type Group, type GroupSpec } from '../../domain/group.js';
import { checkGroupSpec } from '../../domain/group-spec.js';
import { groupNotFound } from '../group-errors.js';
import { viewOf, type GroupView } from '../group-view.js';
import { UpdateGroupCommand } from './update-group.command.js';

const CHANGEABLE = ['description', 'select', 'include', 'exclude', 'overrides'] as const;

@CommandHandler(UpdateGroupCommand)
export class UpdateGroupHandler implements ICommandHandler<UpdateGroupCommand, GroupView> {
  constructor(
    @Inject(GroupRepository) private readonly groups: GroupRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ name, input, actor, shapeProblems }: UpdateGroupCommand): Promise<GroupView> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const { name: renamed, ...given } = input;
    if (renamed !== undefined && renamed !== name) problems.add('name', 'cannot be changed: a group is served under its name (create another group instead)');
    const changes = checkGroupSpec(given, problems, true) as Partial<GroupSpec>;
    problems.throwIfAny('The group change is invalid.');
    const result = await this.uow.run(async () => {
      const group = await this.groups.findByName(name, { lock: true });
      if (!group) throw groupNotFound(name);
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const field of CHANGEABLE) {
        if (changes[field] === undefined || canonicalJson(changes[field]) === canonicalJson(group[field])) continue;
        before[field] = group[field];
        after[field] = changes[field];
      }
      if (Object.keys(after).length === 0) return { group, changed: false };
      const updated: Group = { ...group, ...changes, updatedAt: this.clock.now(), updatedBy: actor, version: group.version + 1 };
      await this.groups.update(updated);
      await this.audit.record({ actor, action: 'group.updated', targetType: 'group', targetId: group.id, targetName: group.name, details: { before, after } });
      await this.notifier.notifyGroupChanged(group.name);
      return { group: updated, changed: true };
    });
    if (result.changed) this.events.publish(new GroupsChanged(name));
    return viewOf(result.group);
  }
}

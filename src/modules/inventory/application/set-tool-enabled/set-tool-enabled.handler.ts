import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, CatalogChanged } from '../../../../shared/catalog-events.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { SourceToolRepository } from '../../domain/source-tool.repository.js';
import { toolNotFound } from '../tool-errors.js';
import { SetToolEnabledCommand } from './set-tool-enabled.command.js';

@CommandHandler(SetToolEnabledCommand)
export class SetToolEnabledHandler implements ICommandHandler<SetToolEnabledCommand, void> {
  constructor(
    @Inject(SourceToolRepository) private readonly tools: SourceToolRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ qualifiedName, enabled, actor }: SetToolEnabledCommand): Promise<void> {
    const sourceId = await this.uow.run(async () => {
      const tool = await this.tools.findLiveByQualifiedName(qualifiedName, { lock: true });
      if (!tool) throw toolNotFound(qualifiedName);
      if (!tool.setEnabled(enabled, this.clock.now())) return undefined;
      await this.tools.saveAll([tool]);
      await this.audit.record({
        actor,
        action: enabled ? 'tool.enabled' : 'tool.disabled',
        targetType: 'tool',
        targetId: tool.snapshot().id,
        targetName: qualifiedName,
        details: {},
      });
      await this.notifier.notifyOthers(tool.snapshot().sourceId);
      return tool.snapshot().sourceId;
    });
    if (sourceId) this.events.publish(new CatalogChanged(sourceId));
  }
}

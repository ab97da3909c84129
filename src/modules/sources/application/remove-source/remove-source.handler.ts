import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, CatalogChanged } from '../../../../shared/catalog-events.js';
import { CircuitBreakers } from '../circuit-breakers.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { InventorySync } from '../../../inventory/application/sync-inventory/inventory-sync.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { SourceRemoved } from '../../domain/source-removed.event.js';
import { UpstreamDiscovery } from '../../domain/upstream-discovery.port.js';
import { RefreshCoordinator } from '../refresh-inventory/refresh-coordinator.js';
import { sourceNotFound } from '../source-errors.js';
import { RemoveSourceCommand } from './remove-source.command.js';

/** Soft delete: the rows stay for history, the tools leave the catalog, the processes stop; SourceRemoved tells whoever kept something for it. */
@CommandHandler(RemoveSourceCommand)
export class RemoveSourceHandler implements ICommandHandler<RemoveSourceCommand, void> {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(InventorySync) private readonly inventory: InventorySync,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(RefreshCoordinator) private readonly refresher: RefreshCoordinator,
    @Inject(UpstreamDiscovery) private readonly discovery: UpstreamDiscovery,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ idOrName, actor }: RemoveSourceCommand): Promise<void> {
    const removed = await this.uow.run(async () => {
      const source = await this.sources.findLive(idOrName, { lock: true });
      if (!source) throw sourceNotFound(idOrName);
      const { id, name, url, upstreamAuth } = source.snapshot();
      source.remove(this.clock.now());
      await this.sources.save(source);
      const retired = await this.inventory.retire(source.id);
      await this.audit.record({
        actor,
        action: 'source.removed',
        targetType: 'source',
        targetId: source.id,
        targetName: source.name,
        details: { retiredTools: retired },
      });
      await this.notifier.notifyOthers(source.id);
      return { id, name, url, upstreamAuth };
    });
    const id = removed.id;
    this.events.publish(new CatalogChanged(id));
    this.events.publish(new SourceRemoved(removed, actor));
    await this.refresher.cancel(id);
    await this.discovery.forget(id);
    this.circuits.forget(id);
  }
}

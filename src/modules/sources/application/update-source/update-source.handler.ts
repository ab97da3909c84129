import { settingsChange } from '../source-audit-details.js';
import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, CatalogChanged } from '../../../../shared/catalog-events.js';
import { CircuitBreakers } from '../circuit-breakers.js';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config.js';
import { Conflict, ProblemList } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import type { SourceChanges } from '../../domain/source.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { UpstreamDiscovery } from '../../domain/upstream-discovery.port.js';
import { RefreshCoordinator } from '../refresh-inventory/refresh-coordinator.js';
import { sourceNotFound } from '../source-errors.js';
import { mergeConnection } from '../merge-connection.js';
import { SourceSpecChecker } from '../source-spec-checker.js';
import { discoveryWaitMs, waitAtMost } from '../wait-at-most.js';
import { UpdateSourceCommand } from './update-source.command.js';
import { isPerPrincipal } from '../../domain/upstream-auth.js';

const CONNECTION_KEYS = ['lifecycle', 'pluginDir', 'packageIndex', 'command', 'args', 'cwd', 'sandbox', 'url', 'env', 'headers', 'upstreamAuth'] as const;

@CommandHandler(UpdateSourceCommand)
export class UpdateSourceHandler implements ICommandHandler<UpdateSourceCommand, { id: string }> {
  constructor(
    @Inject(SourceSpecChecker) private readonly checker: SourceSpecChecker,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(RefreshCoordinator) private readonly refresher: RefreshCoordinator,
    @Inject(UpstreamDiscovery) private readonly discovery: UpstreamDiscovery,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ idOrName, changes, shapeProblems, actor, waitForDiscovery, principal }: UpdateSourceCommand): Promise<{ id: string }> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const current = await this.sources.findLive(idOrName);
    if (!current) throw sourceNotFound(idOrName);
    if (!current.isAtVersion(changes.version)) throw staleVersion(current.name);

    const update: SourceChanges = {
      description: changes.description,
      readOnly: changes.readOnly,
      timeoutMs: changes.timeoutMs,
      maxConcurrency: changes.maxConcurrency,
      rateLimitPerMinute: changes.rateLimitPerMinute,
      refreshIntervalSeconds: changes.refreshIntervalSeconds,
      circuitBreaker: changes.circuitBreaker ? { ...current.snapshot().circuitBreaker, ...changes.circuitBreaker } : undefined,
      pinning: changes.pinning,
      enabled: changes.enabled,
    };
    const touchesConnection = CONNECTION_KEYS.some((key) => changes[key] !== undefined);
    if (touchesConnection) {
      const checked = await this.checker.check(mergeConnection(current.snapshot(), changes), problems);
      problems.addAll(checked.problems);
      if (checked.connection) {
        const { transport: _transport, ...connection } = checked.connection;
        Object.assign(update, connection);
      }
    }
    problems.throwIfAny('The source update is invalid.');

    const outcome = await this.uow.run(async () => {
      const source = await this.sources.findLive(current.id, { lock: true });
      if (!source) throw sourceNotFound(idOrName);
      // Only a caller that names the version it read is refused when it moved: without one, the
      // change applies over whatever a refresh or announcement wrote since (last writer wins).
      if (changes.version !== undefined && !source.isAtVersion(changes.version)) throw staleVersion(source.name);
      const before = source.snapshot();
      // Becoming per-user: the principal that made it so discovers, unless one already does.
      if (touchesConnection) update.discoveryPrincipal = isPerPrincipal(update.upstreamAuth) ? (before.discoveryPrincipal ?? principal ?? { id: actor, name: actor }) : null;
      const { connectionChanged } = source.update(update, this.clock.now());
      const after = source.snapshot();
      const changed = (Object.keys(update) as (keyof SourceChanges)[]).filter(
        (key) => update[key] !== undefined && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
      );
      await this.sources.save(source);
      await this.audit.record({
        actor,
        action: before.enabled !== after.enabled ? (after.enabled ? 'source.enabled' : 'source.disabled') : 'source.updated',
        targetType: 'source',
        targetId: source.id,
        targetName: source.name,
        details: { changed, ...settingsChange(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>, changed) },
      });
      await this.notifier.notifyOthers(source.id);
      return { connectionChanged, enabled: after.enabled, wasEnabled: before.enabled };
    });

    if (outcome.connectionChanged || !outcome.enabled) {
      // The pooled connections, processes and circuit state belong to the old settings.
      await this.refresher.cancel(current.id);
      await this.discovery.release(current.id);
      this.circuits.forget(current.id);
    }
    this.events.publish(new CatalogChanged(current.id));
    if (outcome.enabled && (outcome.connectionChanged || !outcome.wasEnabled)) {
      const refresh = this.refresher.refresh(current.id).catch(() => undefined);
      if (waitForDiscovery) await waitAtMost(refresh, discoveryWaitMs(this.config));
    }
    return { id: current.id };
  }
}

function staleVersion(name: string): Conflict {
  return new Conflict('STALE_VERSION', `Source "${name}" has changed since version you sent; reload it and try again.`, [
    { path: 'version', message: 'is not the current version' },
  ]);
}

import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, CatalogChanged } from '../../../../shared/catalog-events.js';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config.js';
import { Conflict, ProblemList } from '../../../../shared/domain-error.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { Source } from '../../domain/source.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { RefreshCoordinator } from '../refresh-inventory/refresh-coordinator.js';
import { SourceSpecChecker } from '../source-spec-checker.js';
import { settingsOf } from '../source-spec.js';
import { discoveryWaitMs, waitAtMost } from '../wait-at-most.js';
import { RegisterSourceCommand } from './register-source.command.js';
import { sourceAuditDetails } from '../source-audit-details.js';
import { isPerPrincipal } from '../../domain/upstream-auth.js';

@CommandHandler(RegisterSourceCommand)
export class RegisterSourceHandler implements ICommandHandler<RegisterSourceCommand, { id: string }> {
  private readonly logger = new Logger('sources');

  constructor(
    @Inject(SourceSpecChecker) private readonly checker: SourceSpecChecker,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(RefreshCoordinator) private readonly refresher: RefreshCoordinator,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ spec, shapeProblems, actor, waitForDiscovery, principal, callerToken }: RegisterSourceCommand): Promise<{ id: string }> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const checked = await this.checker.check(spec, problems);
    problems.addAll(checked.problems);
    problems.throwIfAny('The source registration is invalid.');
    const connection = checked.connection!;

    if (await this.sources.nameTaken(spec.name)) {
      throw new Conflict('SOURCE_NAME_TAKEN', `A source named "${spec.name}" already exists.`, [{ path: 'name', message: 'is already taken' }]);
    }
    const source = Source.register(
      {
        id: this.ids.next(),
        name: spec.name,
        ...connection,
        discoveryPrincipal: isPerPrincipal(connection.upstreamAuth) ? (principal ?? { id: actor, name: actor }) : null,
        ...settingsOf(spec),
      },
      this.clock.now(),
    );
    await this.uow.run(async () => {
      await this.sources.insert(source);
      await this.audit.record({
        actor,
        action: 'source.registered',
        targetType: 'source',
        targetId: source.id,
        targetName: source.name,
        details: { ...sourceAuditDetails(connection), ...(connection.upstreamAuth ? { upstreamAuth: connection.upstreamAuth } : {}) },
      });
      await this.notifier.notifyOthers(source.id);
    });

    this.events.publish(new CatalogChanged(source.id));
    if (source.enabled) {
      const refresh = this.refresher.refresh(source.id, undefined, callerToken).catch((error: unknown) => {
        this.logger.warn(`first discovery of ${source.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      if (waitForDiscovery) await waitAtMost(refresh, discoveryWaitMs(this.config));
    }
    return { id: source.id };
  }
}

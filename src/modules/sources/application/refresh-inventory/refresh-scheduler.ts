import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config.js';
import { BackgroundPass } from '../../../../shared/background-pass.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { RefreshCoordinator } from './refresh-coordinator.js';

const BATCH = 4;

/**
 * Keeps inventories fresh: each tick claims the sources whose `refreshIntervalSeconds` has
 * passed (a lease in the database, so several Toolplane processes share the work) and
 * refreshes a few at a time.
 */
@Injectable()
export class RefreshScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('refresh-scheduler');
  private readonly passes = new BackgroundPass(() => this.tick());

  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(RefreshCoordinator) private readonly coordinator: RefreshCoordinator,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.passes.start(this.config.refreshTickMs, (error) => this.logger.warn(`scheduled refresh failed: ${error instanceof Error ? error.message : String(error)}`), false);
  }

  onModuleDestroy(): Promise<void> {
    return this.passes.stop();
  }

  private async tick(): Promise<void> {
    const leaseMs = this.config.discoveryTimeoutMs * 2;
    const due = await this.sources.claimDueForRefresh(this.clock.now(), leaseMs, BATCH, this.config.refreshRetryInitialMs);
    await Promise.allSettled(due.map((id) => this.coordinator.refresh(id).finally(() => this.sources.releaseRefreshLease(id))));
  }
}

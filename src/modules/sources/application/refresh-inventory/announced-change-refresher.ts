import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { UpstreamDiscovery } from '../../domain/upstream-discovery.port.js';
import { RefreshCoordinator } from './refresh-coordinator.js';

/**
 * Refreshes a source's inventory as soon as its upstream announces that its tools changed, rather
 * than at its next scheduled refresh: the catalog, and the clients listening to Toolplane, hear of
 * it within a second. An announcement that comes while a refresh of the source runs is answered
 * by another one once it is done (the running one may have listed the tools before the change).
 */
@Injectable()
export class AnnouncedChangeRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('refresh');
  private stopListening?: () => void;
  /** Sources announced again while their refresh ran. */
  private readonly pending = new Set<string>();
  private readonly refreshing = new Set<string>();
  private stopped = false;

  constructor(
    @Inject(UpstreamDiscovery) private readonly discovery: UpstreamDiscovery,
    @Inject(RefreshCoordinator) private readonly coordinator: RefreshCoordinator,
  ) {}

  onApplicationBootstrap(): void {
    this.stopListening = this.discovery.onToolsChanged((sourceId) => this.announced(sourceId));
  }

  onModuleDestroy(): void {
    this.stopped = true;
    this.stopListening?.();
  }

  private announced(sourceId: string): void {
    if (this.stopped) return;
    if (this.refreshing.has(sourceId)) {
      this.pending.add(sourceId);
      return;
    }
    this.refreshing.add(sourceId);
    void this.coordinator
      .refresh(sourceId)
      .then((outcome) => {
        if (!outcome.ok) this.logger.warn(`refresh of source ${sourceId} after its upstream announced changed tools failed: ${outcome.error}`);
      })
      .catch((error: unknown) => this.logger.warn(`refresh of source ${sourceId} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.refreshing.delete(sourceId);
        if (this.pending.delete(sourceId)) this.announced(sourceId);
      });
  }
}

import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { CatalogChangeNotifier, CatalogChanged, InventorySeen } from '../../../../shared/catalog-events.js';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config.js';
import { DomainError, type ProblemDetail } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { InventorySync } from '../../../inventory/application/sync-inventory/inventory-sync.js';
import type { InventoryChanges } from '../../../inventory/domain/inventory-diff.js';
import type { SourceProps } from '../../domain/source.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { UpstreamDiscovery } from '../../domain/upstream-discovery.port.js';
import { UpstreamTargetResolver } from '../upstream-target-resolver.js';
import { SecretScrubber, type KnownSecret } from '../../../../shared/secret-scrubber.js';
import { maskUrlCredentialsInText } from '../../../../shared/url-credentials.js';
import { WorkMetrics } from '../../../../shared/work-metrics.js';
import { ManifestReread } from './manifest-reread.js';
import { UpstreamCredentials } from '../upstream-credentials.js';
import type { CredentialOutcome } from '../../domain/upstream-credentials.js';

export type RefreshOutcome =
  | { ok: true; changes: InventoryChanges }
  /**
   * `manifestProblems`: the plugin directory's manifest could not be used, and no discovery was made.
   * `awaiting`: a per-user source whose discovery principal has no credential yet (nothing was sent).
   */
  | { ok: false; error: string; manifestProblems?: ProblemDetail[]; awaiting?: CredentialRequired };

export type CredentialRequired = Extract<CredentialOutcome, { kind: 'required' }>;

/** Who a refresh nobody asked for (scheduled, announced, after a registration) acts as, in the audit trail. */
export const REFRESH_ACTOR = 'toolplane:refresh';

/** A refresh under way in this process: since when, and what its discovery has got to. */
export interface RefreshUnderWay {
  since: Date;
  progress: string;
}

interface RunningRefresh {
  promise: Promise<RefreshOutcome>;
  abort: AbortController;
  since: Date;
  /** Set once the discovery started (see DiscoveryOptions.onProgress). */
  progress: { describe?: () => string };
}

/**
 * Runs RefreshInventory for a source at most once at a time per process: concurrent requests
 * join the refresh under way. Discovery happens outside any transaction; its outcome — tools
 * and source health — is written in one. Removal and shutdown abort a refresh under way.
 */
@Injectable()
export class RefreshCoordinator implements OnModuleDestroy {
  private readonly logger = new Logger('refresh');
  private readonly running = new Map<string, RunningRefresh>();

  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(InventorySync) private readonly inventory: InventorySync,
    @Inject(UpstreamDiscovery) private readonly discovery: UpstreamDiscovery,
    @Inject(UpstreamTargetResolver) private readonly targets: UpstreamTargetResolver,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
    @Inject(WorkMetrics) private readonly metrics: WorkMetrics,
    @Inject(ManifestReread) private readonly manifests: ManifestReread,
    @Inject(UpstreamCredentials) private readonly credentials: UpstreamCredentials,
  ) {}

  /**
   * `actor`: who asked, named in the audit event of a manifest change the refresh finds (a caller
   * joining a refresh under way does not start another). `callerToken`: the discovery principal's
   * own bearer token, when it is the one asking (a token-exchange source discovers only with it).
   */
  refresh(sourceId: string, actor = REFRESH_ACTOR, callerToken?: string): Promise<RefreshOutcome> {
    const current = this.running.get(sourceId);
    if (current) return current.promise;
    const abort = new AbortController();
    const progress: RunningRefresh['progress'] = {};
    const started = performance.now();
    // CatalogChanged only when what the catalog lists changed: each one makes every cache of the
    // catalog read it again, and most refreshes find an upstream as it was.
    const promise = this.run(sourceId, abort.signal, progress, actor, callerToken).then(
      ({ outcome, changed }) => {
        this.running.delete(sourceId);
        this.events.publish(changed ? new CatalogChanged(sourceId) : new InventorySeen(sourceId));
        return outcome;
      },
      (error: unknown) => {
        this.running.delete(sourceId);
        this.events.publish(new CatalogChanged(sourceId));
        throw error;
      },
    );
    void promise.then(
      (outcome) => this.metrics.refreshEnded(outcome.ok, (performance.now() - started) / 1000),
      () => this.metrics.refreshEnded(false, (performance.now() - started) / 1000),
    );
    this.running.set(sourceId, { promise, abort, since: this.clock.now(), progress });
    return promise;
  }

  /** The refresh of a source under way in this process, if any (e.g. after a registration stopped waiting for it). */
  underWay(sourceId: string): RefreshUnderWay | undefined {
    const current = this.running.get(sourceId);
    if (!current) return undefined;
    return { since: current.since, progress: current.progress.describe?.() ?? 'starting' };
  }

  /** Stops a refresh under way (the source is being removed or changed). */
  async cancel(sourceId: string): Promise<void> {
    const current = this.running.get(sourceId);
    if (!current) return;
    current.abort.abort(new Error('the source was changed or removed'));
    await current.promise.catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    const all = [...this.running.values()];
    for (const { abort } of all) abort.abort(new Error('Toolplane is shutting down'));
    await Promise.allSettled(all.map((r) => r.promise));
  }

  /** The outcome, and whether the source's tools, protocol or health (as the catalog shows them) changed. */
  private async run(sourceId: string, signal: AbortSignal, progress: RunningRefresh['progress'], actor: string, callerToken?: string): Promise<{ outcome: RefreshOutcome; changed: boolean }> {
    let source = await this.sources.findLive(sourceId);
    if (!source) throw new DomainError('not_found', 'SOURCE_NOT_FOUND', 'The source no longer exists.');
    // The plugin directory's manifest is read again first: a refresh discovers what the file now says.
    const manifest = await this.manifests.reread(source, actor);
    if (manifest.kind === 'invalid') return this.refuseManifest(source.snapshot(), manifest.problems);
    if (manifest.kind === 'changed') source = manifest.source;
    const manifestChanged = manifest.kind === 'changed';
    let discovered;
    let secrets: readonly KnownSecret[] = [];
    try {
      const credential = await this.credentials.forDiscoveryOf(source.snapshot(), await this.targets.resolve(source.snapshot()), callerToken);
      if (credential.kind === 'required') return await this.awaitConnection(sourceId, credential, manifestChanged);
      const target = credential.target;
      secrets = target.secrets;
      discovered = await this.discovery.discover(target, {
        timeoutMs: this.config.discoveryTimeoutMs,
        signal,
        onProgress: (describe) => (progress.describe = () => maskUrlCredentialsInText(describe())),
      });
    } catch (error) {
      // What an upstream answered may echo the credentials it was given: the source's own state never shows them.
      const reason = maskUrlCredentialsInText(SecretScrubber.of(secrets).text(describe(error)));
      if (signal.aborted) return { outcome: { ok: false, error: reason }, changed: false };
      this.logger.warn(`refresh of source ${source.name} failed: ${reason}`);
      const changed = await this.uow.run(async () => {
        const locked = await this.sources.findLive(sourceId, { lock: true });
        if (!locked) return true;
        const before = locked.snapshot();
        locked.recordRefreshFailure(reason, this.clock.now());
        await this.sources.save(locked);
        return healthMoved(before, locked.snapshot());
      });
      return { outcome: { ok: false, error: reason }, changed: changed || manifestChanged };
    }
    if (signal.aborted) return { outcome: { ok: false, error: describe(signal.reason) }, changed: manifestChanged };
    return this.uow.run(async () => {
      const locked = await this.sources.findLive(sourceId, { lock: true });
      if (!locked) return { outcome: { ok: false as const, error: 'the source was removed during the refresh' }, changed: true };
      const previous = locked.snapshot();
      const { changes, inventoryHash, reordered } = await this.inventory.apply(locked.id, locked.name, discovered.tools, previous.pinning);
      const before = previous.upstream;
      locked.recordRefreshSuccess(
        {
          era: discovered.era,
          protocolVersion: discovered.protocolVersion,
          serverInfo: discovered.serverInfo,
          discoverResult: discovered.discoverResult,
          ...(discovered.skippedTools ? { skippedTools: discovered.skippedTools } : {}),
        },
        inventoryHash,
        this.clock.now(),
      );
      await this.sources.save(locked);
      // Other processes care about what they list and how they reach the upstream, not about health.
      const eraChanged = before?.era !== discovered.era || before?.protocolVersion !== discovered.protocolVersion;
      const listingChanged = eraChanged || reordered || changes.added + changes.changed + changes.deprecated + changes.restored > 0;
      if (listingChanged) await this.notifier.notifyOthers(locked.id);
      return { outcome: { ok: true as const, changes }, changed: manifestChanged || listingChanged || healthMoved(previous, locked.snapshot()) };
    });
  }

  /** A per-user source cannot discover until its discovery principal has a credential: said by its health, not counted as a failure. */
  private async awaitConnection(sourceId: string, required: CredentialRequired, manifestChanged: boolean): Promise<{ outcome: RefreshOutcome; changed: boolean }> {
    const changed = await this.uow.run(async () => {
      const locked = await this.sources.findLive(sourceId, { lock: true });
      if (!locked) return true;
      const before = locked.snapshot();
      locked.recordAwaitingConnection(required.message, this.clock.now());
      await this.sources.save(locked);
      return healthMoved(before, locked.snapshot());
    });
    return { outcome: { ok: false, error: required.message, awaiting: required }, changed: changed || manifestChanged };
  }

  /** The manifest cannot be used: the source keeps the one it had, and records why it was not refreshed. */
  private async refuseManifest(source: Readonly<SourceProps>, problems: ProblemDetail[]): Promise<{ outcome: RefreshOutcome; changed: boolean }> {
    const reason = `the manifest in ${source.pluginDir} cannot be used, the source keeps the one it had: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`;
    this.logger.warn(`refresh of source ${source.name} failed: ${reason}`);
    const changed = await this.uow.run(async () => {
      const locked = await this.sources.findLive(source.id, { lock: true });
      if (!locked) return true;
      const before = locked.snapshot();
      locked.recordRefreshFailure(reason, this.clock.now());
      await this.sources.save(locked);
      return healthMoved(before, locked.snapshot());
    });
    return { outcome: { ok: false, error: reason, manifestProblems: problems }, changed };
  }
}

/** Whether the health a refresh records (health, last error) moved; its times always do. */
function healthMoved(before: Readonly<SourceProps>, after: Readonly<SourceProps>): boolean {
  return before.health !== after.health || before.lastError !== after.lastError;
}

function describe(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

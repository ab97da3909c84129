import { loadConfig, type AppConfig } from '../../../config/app-config.js';
import { RecordingCatalogNotifier } from '../../../shared/testing/recording-catalog-notifier.js';
import { RecordingEventBus } from '../../../shared/testing/recording-event-bus.js';
import { RecordingWorkMetrics } from '../../../shared/testing/recording-work-metrics.js';
import { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { SequentialIds } from '../../../shared/testing/sequential-ids.js';
import { RecordingAuditLog } from '../../audit/testing/recording-audit-log.js';
import { InventorySync } from '../../inventory/application/sync-inventory/inventory-sync.js';
import type { SourceTool } from '../../inventory/domain/source-tool.js';
import { InMemorySourceToolRepository } from '../../inventory/testing/in-memory-source-tool-repository.js';
import { InMemoryDefinitionReviewRepository } from '../../inventory/testing/in-memory-definition-review-repository.js';
import { InMemorySecretRepository } from '../../secrets/testing/in-memory-secret-repository.js';
import { CircuitBreakers } from '../application/circuit-breakers.js';
import { ManifestReread } from '../application/refresh-inventory/manifest-reread.js';
import { RefreshCoordinator } from '../application/refresh-inventory/refresh-coordinator.js';
import { SourceSpecChecker } from '../application/source-spec-checker.js';
import type { StoredSourceView } from '../application/source-view.js';
import { UpstreamTargetResolver } from '../application/upstream-target-resolver.js';
import { UpstreamCredentials } from '../application/upstream-credentials.js';
import { UserSecretCredentials } from '../application/user-secret-credentials.js';
import { InMemoryUserSecrets } from '../../secrets/testing/in-memory-user-secrets.js';
import type { Source } from '../domain/source.js';
import { FakeCommandLocator } from './fake-command-locator.js';
import { FakeManifestLoader } from './fake-manifest-loader.js';
import { FakePluginAccess } from './fake-plugin-access.js';
import { FakeRemoteHostCheck } from './fake-remote-host-check.js';
import { FakeUpstreamDiscovery } from './fake-upstream-discovery.js';
import { hostEnvironment } from './host-environment.js';
import { InMemorySourceRepository } from './in-memory-source-repository.js';
import { InMemorySourceViews } from './in-memory-source-views.js';

/** The fixture's clock starts here, after the sources and tools the builders make. */
export const NOW = '2026-01-01T12:00:00.000Z';

export interface SourcesFixtureOptions {
  sources?: Source[];
  tools?: SourceTool[];
  views?: StoredSourceView[];
  /** Stored secrets, by name. */
  secrets?: Record<string, string>;
  /** Each principal's own secrets, by principal id and name. */
  userSecrets?: Record<string, Record<string, string>>;
  /** Toolplane's environment, for `${env:…}` references. */
  env?: Record<string, string>;
  /** Settings over those of an empty environment. */
  config?: Partial<AppConfig>;
}

/**
 * The sources module wired as in the application, each port an in-memory fake and every
 * application service (the checks, the resolver, the refresh, the inventory's sync) real.
 */
export function sourcesFixture(options: SourcesFixtureOptions = {}) {
  const clock = new FixedClock(NOW);
  const ids = new SequentialIds();
  const uow = new DirectUnitOfWork();
  const audit = new RecordingAuditLog(uow);
  const events = new RecordingEventBus();
  const notifier = new RecordingCatalogNotifier();
  const metrics = new RecordingWorkMetrics();
  const config: AppConfig = { ...loadConfig({}), ...options.config };

  const sources = new InMemorySourceRepository(options.sources);
  const views = new InMemorySourceViews(options.views);
  const tools = new InMemorySourceToolRepository(options.tools);
  const reviews = new InMemoryDefinitionReviewRepository();
  const secrets = new InMemorySecretRepository(options.secrets);
  const userSecrets = new InMemoryUserSecrets(options.userSecrets);
  const env = { ...options.env };
  const host = hostEnvironment(env);
  const manifests = new FakeManifestLoader();
  const commands = new FakeCommandLocator();
  const access = new FakePluginAccess();
  const remoteHosts = new FakeRemoteHostCheck();
  const discovery = new FakeUpstreamDiscovery();

  const checker = new SourceSpecChecker(manifests, commands, secrets, host, access, remoteHosts);
  const resolver = new UpstreamTargetResolver(secrets, host);
  const circuits = new CircuitBreakers(metrics);
  const inventory = new InventorySync(tools, reviews, clock, ids);
  const manifestReread = new ManifestReread(checker, sources, audit, uow, clock, notifier, discovery, circuits);
  const credentials = new UpstreamCredentials(sources, resolver, [new UserSecretCredentials(userSecrets)]);
  const refresher = new RefreshCoordinator(sources, inventory, discovery, resolver, uow, clock, config, events.bus, notifier, metrics, manifestReread, credentials);

  /** Opens the circuit of a source, as failed calls would. */
  const tripCircuit = (sourceId: string) => {
    const breaker = circuits.forSource(sourceId, { failureThreshold: 1, resetTimeoutMs: 60_000 });
    breaker.onFailure(false, clock.now().getTime());
  };

  return {
    tripCircuit,
    clock,
    ids,
    uow,
    audit,
    events,
    notifier,
    metrics,
    config,
    sources,
    views,
    tools,
    reviews,
    secrets,
    userSecrets,
    credentials,
    env,
    host,
    manifests,
    commands,
    access,
    remoteHosts,
    discovery,
    checker,
    resolver,
    circuits,
    inventory,
    manifestReread,
    refresher,
  };
}

export type SourcesFixture = ReturnType<typeof sourcesFixture>;

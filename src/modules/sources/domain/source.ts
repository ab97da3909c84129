import type { VariableDeclaration } from './manifest/env-declaration.js';
import { type SandboxSettings, type SourceHealth, type SourcePolicies, UNHEALTHY_AFTER_FAILURES } from './source-settings.js';
import type { ProtocolEra } from './upstream.js';
import type { StdioLifecycle, TransportKind } from './source-settings.js';
import type { DiscoveryPrincipal, UpstreamAuth } from './upstream-auth.js';

/** What a source's manifest contributed, kept with the source for later checks and display. */
export interface ManifestSummary {
  file: 'server.json' | 'plugin.json';
  /** The package chosen with `packageIndex` (absent: the manifest's own first choice), read again on refresh. */
  packageIndex?: number;
  name: string;
  version: string;
  description?: string;
  env: VariableDeclaration[];
  headers: VariableDeclaration[];
}

export interface UpstreamIdentity {
  era: ProtocolEra;
  protocolVersion: string;
  serverInfo?: { name: string; version?: string };
  discoverResult?: unknown;
  /** Tools the last discovery listed but could not keep, with the reasons. */
  skippedTools?: { name: string; reason: string }[];
}

export interface SourceProps extends SourcePolicies {
  id: string;
  name: string;
  description: string | null;
  transport: TransportKind;
  lifecycle: StdioLifecycle;
  pluginDir: string | null;
  manifest: ManifestSummary | null;
  command: string | null;
  /** The command and args were derived from the manifest, not given explicitly. */
  commandFromManifest: boolean;
  args: string[];
  cwd: string | null;
  /** stdio: what the sandbox adds for this source (network, extra read-only and writable paths). */
  sandbox: SandboxSettings;
  url: string | null;
  /** Value templates (literal text and references), never resolved values. */
  env: Record<string, string>;
  headers: Record<string, string>;
  /** How it authenticates upstream (null: shared, as env and headers say). */
  upstreamAuth: UpstreamAuth | null;
  /** Per-user modes: whose credential discovers the tools (the principal that registered it). */
  discoveryPrincipal: DiscoveryPrincipal | null;
  enabled: boolean;
  health: SourceHealth;
  lastRefreshAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  inventoryHash: string | null;
  upstream: UpstreamIdentity | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  version: number;
}

/** The settings a user may change after registration. */
export type SourceChanges = Partial<
  Pick<
    SourceProps,
    | 'description'
    | 'lifecycle'
    | 'pluginDir'
    | 'manifest'
    | 'command'
    | 'commandFromManifest'
    | 'args'
    | 'cwd'
    | 'sandbox'
    | 'url'
    | 'env'
    | 'headers'
    | 'upstreamAuth'
    | 'discoveryPrincipal'
    | 'readOnly'
    | 'timeoutMs'
    | 'maxConcurrency'
    | 'rateLimitPerMinute'
    | 'refreshIntervalSeconds'
    | 'circuitBreaker'
    | 'pinning'
    | 'enabled'
  >
>;

const CONNECTION_FIELDS: (keyof SourceChanges)[] = ['lifecycle', 'pluginDir', 'command', 'args', 'cwd', 'sandbox', 'url', 'env', 'headers', 'upstreamAuth'];

/** A registered MCP server: how to reach it, its policies, and how its discovery has gone. */
export class Source {
  private constructor(private props: SourceProps) {}

  static restore(props: SourceProps): Source {
    return new Source({ ...props });
  }

  static register(props: Omit<SourceProps, 'health' | 'lastRefreshAt' | 'lastSuccessAt' | 'lastError' | 'consecutiveFailures' | 'inventoryHash' | 'upstream' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version'>, now: Date): Source {
    return new Source({
      ...props,
      health: 'unknown',
      lastRefreshAt: null,
      lastSuccessAt: null,
      lastError: null,
      consecutiveFailures: 0,
      inventoryHash: null,
      upstream: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      version: 1,
    });
  }

  get id(): string {
    return this.props.id;
  }
  get name(): string {
    return this.props.name;
  }
  get enabled(): boolean {
    return this.props.enabled;
  }
  get isRemoved(): boolean {
    return this.props.deletedAt !== null;
  }
  get version(): number {
    return this.props.version;
  }

  snapshot(): Readonly<SourceProps> {
    return this.props;
  }

  /** Applies changes; answers whether the way to reach the upstream changed (pools must be drained). */
  update(changes: SourceChanges, now: Date): { connectionChanged: boolean } {
    const connectionChanged = CONNECTION_FIELDS.some(
      (field) => changes[field] !== undefined && JSON.stringify(changes[field]) !== JSON.stringify(this.props[field]),
    );
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    this.props = { ...this.props, ...defined, updatedAt: now };
    if (connectionChanged) {
      // A different process or URL may speak another era: negotiate again next time.
      this.props.upstream = null;
    }
    return { connectionChanged };
  }

  recordRefreshSuccess(upstream: UpstreamIdentity, inventoryHash: string, now: Date): void {
    this.props = {
      ...this.props,
      upstream,
      inventoryHash,
      health: 'healthy',
      lastRefreshAt: now,
      lastSuccessAt: now,
      lastError: null,
      consecutiveFailures: 0,
      updatedAt: now,
    };
  }

  /** 1–2 failures in a row degrade a source; from the third, or before it ever worked, it is unhealthy. */
  recordRefreshFailure(reason: string, now: Date): void {
    const failures = this.props.consecutiveFailures + 1;
    const neverWorked = this.props.lastSuccessAt === null;
    this.props = {
      ...this.props,
      health: neverWorked || failures >= UNHEALTHY_AFTER_FAILURES ? 'unhealthy' : 'degraded',
      lastRefreshAt: now,
      lastError: reason.slice(0, 2000),
      consecutiveFailures: failures,
      updatedAt: now,
    };
  }

  /**
   * A per-user source that cannot discover yet: its discovery principal has no credential. Not a
   * failure of the upstream, so no failure is counted; a source that worked keeps its health.
   */
  recordAwaitingConnection(reason: string, now: Date): void {
    this.props = {
      ...this.props,
      health: this.props.lastSuccessAt === null ? 'awaiting_connection' : this.props.health,
      lastRefreshAt: now,
      lastError: reason.slice(0, 2000),
      updatedAt: now,
    };
  }

  /** The store accepted this state: later saves compare against the next version. */
  markSaved(): void {
    this.props.version += 1;
  }

  /** Optimistic concurrency for callers that send the version they saw. */
  isAtVersion(version: number | undefined): boolean {
    return version === undefined || version === this.props.version;
  }

  remove(now: Date): void {
    this.props = { ...this.props, enabled: false, deletedAt: now, updatedAt: now };
  }
}

import type { PluginManifest } from '../domain/manifest/plugin-manifest.js';
import { Source, type SourceProps } from '../domain/source.js';
import { DEFAULT_CIRCUIT_BREAKER, DEFAULT_MAX_CONCURRENCY, DEFAULT_REFRESH_INTERVAL_SECONDS, DEFAULT_TIMEOUT_MS } from '../domain/source-settings.js';
import type { SourceSpecInput } from '../application/source-spec.js';
import type { StoredSourceView } from '../application/source-view.js';

export const REGISTERED_AT = new Date('2026-01-01T00:00:00Z');

let made = 0;

/** A stable, UUID-shaped id for the n-th source a spec makes. */
function nextId(): string {
  made += 1;
  return `00000000-0000-4000-8000-${String(made).padStart(12, '0')}`;
}

/** A live stdio source as stored after its registration (`node /srv/demo/server.js`, the defaults), with `overrides`. */
export function aSource(overrides: Partial<SourceProps> = {}): Source {
  const registered = Source.register(
    {
      id: nextId(),
      name: 'demo',
      description: null,
      transport: 'stdio',
      lifecycle: 'transient',
      pluginDir: null,
      manifest: null,
      command: 'node',
      commandFromManifest: false,
      args: ['/srv/demo/server.js'],
      cwd: null,
      sandbox: { network: true, readOnlyPaths: [], writablePaths: [] },
      url: null,
      env: {},
      headers: {},
      upstreamAuth: null,
      discoveryPrincipal: null,
      readOnly: false,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxConcurrency: DEFAULT_MAX_CONCURRENCY,
      rateLimitPerMinute: null,
      refreshIntervalSeconds: DEFAULT_REFRESH_INTERVAL_SECONDS,
      circuitBreaker: DEFAULT_CIRCUIT_BREAKER,
      pinning: 'auto',
      enabled: true,
    },
    REGISTERED_AT,
  );
  return Source.restore({ ...registered.snapshot(), ...overrides });
}

/** A live remote source (streamable HTTP at `https://mcp.example.com/mcp`), with `overrides`. */
export function aRemoteSource(overrides: Partial<SourceProps> = {}): Source {
  return aSource({ name: 'remote', transport: 'streamable-http', command: null, args: [], sandbox: {}, url: 'https://mcp.example.com/mcp', ...overrides });
}

/** A stdio source registered from the manifest of `pluginDir` (see aManifest), stored as registration stores it. */
export function aPluginSource(pluginDir: string, manifest: PluginManifest = aManifest(pluginDir), overrides: Partial<SourceProps> = {}): Source {
  return aSource({
    pluginDir,
    manifest: {
      file: manifest.file,
      ...(manifest.packageIndex > 0 ? { packageIndex: manifest.packageIndex } : {}),
      name: manifest.name,
      version: manifest.version,
      env: manifest.env,
      headers: [],
    },
    command: manifest.launch!.command,
    commandFromManifest: true,
    args: manifest.launch!.args,
    cwd: pluginDir,
    ...overrides,
  });
}

/** A stdio registration of `node /srv/demo/server.js`, with `overrides`. */
export function aStdioSpec(overrides: Partial<SourceSpecInput> = {}): SourceSpecInput {
  return { name: 'demo', transport: 'stdio', command: 'node', args: ['/srv/demo/server.js'], ...overrides };
}

/** A registration of a streamable HTTP server at `https://mcp.example.com/mcp`, with `overrides`. */
export function aRemoteSpec(overrides: Partial<SourceSpecInput> = {}): SourceSpecInput {
  return { name: 'remote', transport: 'streamable-http', url: 'https://mcp.example.com/mcp', ...overrides };
}

/** A server.json whose package launches `node <pluginDir>/server.js`, with `overrides`. */
export function aManifest(pluginDir: string, overrides: Partial<PluginManifest> = {}): PluginManifest {
  return {
    file: 'server.json',
    name: 'io.example/demo',
    version: '1.0.0',
    launch: { command: 'node', args: [`${pluginDir}/server.js`] },
    env: [],
    packageIndex: 0,
    ...overrides,
  };
}

/** A source as the read side shows it, from `aSource(overrides)`'s settings. */
export function aStoredSourceView(overrides: Partial<StoredSourceView> = {}): StoredSourceView {
  const source = aSource().snapshot();
  return {
    id: source.id,
    name: source.name,
    description: source.description,
    transport: source.transport,
    lifecycle: source.lifecycle,
    pluginDir: source.pluginDir,
    manifest: null,
    command: source.command,
    args: source.args,
    cwd: source.cwd,
    sandbox: { network: true, readOnlyPaths: [], writablePaths: [] },
    url: source.url,
    env: [],
    headers: [],
    upstreamAuth: { mode: 'shared' },
    readOnly: source.readOnly,
    timeoutMs: source.timeoutMs,
    maxConcurrency: source.maxConcurrency,
    rateLimitPerMinute: source.rateLimitPerMinute,
    refreshIntervalSeconds: source.refreshIntervalSeconds,
    circuitBreaker: source.circuitBreaker,
    pinning: source.pinning,
    enabled: source.enabled,
    health: source.health,
    lastError: null,
    lastRefreshAt: null,
    lastSuccessAt: null,
    consecutiveFailures: 0,
    toolCount: 0,
    inventoryHash: null,
    protocol: null,
    serverInfo: null,
    skippedTools: [],
    createdAt: REGISTERED_AT.toISOString(),
    updatedAt: REGISTERED_AT.toISOString(),
    version: 1,
    ...overrides,
  };
}

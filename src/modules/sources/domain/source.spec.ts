import { Source } from './source.js';
import { DEFAULT_CIRCUIT_BREAKER } from './source-settings.js';

const now = new Date('2026-01-01T00:00:00Z');
const upstream = { era: 'legacy' as const, protocolVersion: '2025-11-25' };

function newSource(): Source {
  return Source.register(
    {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'demo',
      description: null,
      transport: 'stdio',
      lifecycle: 'transient',
      pluginDir: null,
      manifest: null,
      command: 'node',
      commandFromManifest: false,
      args: ['server.js'],
      cwd: null,
      sandbox: {},
      url: null,
      env: {},
      headers: {},
      readOnly: false,
      timeoutMs: 1000,
      maxConcurrency: 4,
      rateLimitPerMinute: null,
      refreshIntervalSeconds: 60,
      circuitBreaker: DEFAULT_CIRCUIT_BREAKER,
      enabled: true,
    },
    now,
  );
}

describe('Source health', () => {
  it('is unhealthy when the first discovery fails', () => {
    const source = newSource();
    source.recordRefreshFailure('connection refused', now);
    expect(source.snapshot()).toMatchObject({ health: 'unhealthy', consecutiveFailures: 1, lastError: 'connection refused' });
  });

  it('degrades after one or two failures of a source that worked, and is unhealthy from the third', () => {
    const source = newSource();
    source.recordRefreshSuccess(upstream, 'h', now);
    expect(source.snapshot().health).toBe('healthy');
    source.recordRefreshFailure('e1', now);
    expect(source.snapshot().health).toBe('degraded');
    source.recordRefreshFailure('e2', now);
    expect(source.snapshot().health).toBe('degraded');
    source.recordRefreshFailure('e3', now);
    expect(source.snapshot().health).toBe('unhealthy');
    source.recordRefreshSuccess(upstream, 'h', now);
    expect(source.snapshot()).toMatchObject({ health: 'healthy', consecutiveFailures: 0, lastError: null });
  });

  it('forgets the negotiated era when the way to reach the upstream changes', () => {
    const source = newSource();
    source.recordRefreshSuccess(upstream, 'h', now);
    expect(source.update({ timeoutMs: 5000 }, now).connectionChanged).toBe(false);
    expect(source.snapshot().upstream).toEqual(upstream);
    expect(source.update({ args: ['other.js'] }, now).connectionChanged).toBe(true);
    expect(source.snapshot().upstream).toBeNull();
  });
});

import { Source } from './source.js';
import { aSource } from '../testing/builders.js';

const now = new Date('2026-01-01T00:00:00Z');
const upstream = { era: 'legacy' as const, protocolVersion: '2025-11-25' };

/** A source just registered, with the builders' settings. */
const newSource = () => Source.register(aSource().snapshot(), now);

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

import { CatalogChanged } from '../../../../shared/catalog-events.js';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import type { Source } from '../../domain/source.js';
import { aRemoteSource, aSource } from '../../testing/builders.js';
import { aListing } from '../../testing/fake-upstream-discovery.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import type { SourceChangesInput } from '../source-spec.js';
import { UpdateSourceCommand } from './update-source.command.js';
import { UpdateSourceHandler } from './update-source.handler.js';

const LEGACY = { era: 'legacy' as const, protocolVersion: '2025-11-25' };

function setup(source: Source, secrets: Record<string, string> = {}) {
  const f = sourcesFixture({ sources: [source], secrets });
  const handler = new UpdateSourceHandler(f.checker, f.sources, f.audit, f.refresher, f.discovery, f.uow, f.clock, f.config, f.events.bus, f.circuits, f.notifier);
  const update = (changes: SourceChangesInput, shapeProblems: ProblemDetail[] = []) =>
    handler.execute(new UpdateSourceCommand(source.name, changes, shapeProblems, 'admin', true));
  return { ...f, update, id: source.id };
}

describe('UpdateSourceHandler', () => {
  it('makes a source per-user: its principal discovers, its pools are released, the audit keeps references only', async () => {
    const f = setup(aRemoteSource({ headers: { Authorization: 'Bearer ${secret:TOKEN}' }, upstream: LEGACY }), { TOKEN: 'shared-token-value' });
    const handler = new UpdateSourceHandler(f.checker, f.sources, f.audit, f.refresher, f.discovery, f.uow, f.clock, f.config, f.events.bus, f.circuits, f.notifier);

    await handler.execute(
      new UpdateSourceCommand('remote', { headers: { Authorization: 'Bearer ${user-secret:JIRA}' }, upstreamAuth: { mode: 'user-secret' } }, [], 'key-alice', true, { id: 'key-alice', name: 'alice' }),
    );

    expect(f.sources.stored(f.id)).toMatchObject({ upstreamAuth: { mode: 'user-secret' }, discoveryPrincipal: { id: 'key-alice', name: 'alice' }, health: 'awaiting_connection' });
    expect(f.discovery.released).toEqual([f.id]);
    expect(f.audit.events[0]?.details).toMatchObject({ changed: ['headers', 'upstreamAuth', 'discoveryPrincipal'], after: { headers: { Authorization: '*** ${user-secret:JIRA}' } } });
    expect(JSON.stringify(f.audit.events)).not.toContain('shared-token-value');

    // Back to shared: no principal discovers any more, and a ${user-secret:…} left behind is refused.
    const refused = await rejection(handler.execute(new UpdateSourceCommand('remote', { upstreamAuth: null }, [], 'admin', true)));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'headers.Authorization', message: expect.stringContaining('user-secret') }] });
    await handler.execute(new UpdateSourceCommand('remote', { upstreamAuth: { mode: 'shared' }, headers: { Authorization: 'Bearer ${secret:TOKEN}' } }, [], 'admin', true));
    expect(f.sources.stored(f.id)).toMatchObject({ upstreamAuth: null, discoveryPrincipal: null });
  });

  it('stores changed settings and audits each with its value before and after, without reconnecting', async () => {
    const f = setup(aSource({ upstream: LEGACY }));
    f.tripCircuit(f.id);

    await f.update({ description: 'three tools', timeoutMs: 5000, readOnly: false });

    expect(f.sources.stored(f.id)).toMatchObject({ description: 'three tools', timeoutMs: 5000, version: 2, upstream: LEGACY });
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'source.updated',
        targetType: 'source',
        targetId: f.id,
        targetName: 'demo',
        details: { changed: ['description', 'timeoutMs'], before: { description: null, timeoutMs: 60_000 }, after: { description: 'three tools', timeoutMs: 5000 } },
      },
    ]);
    expect(f.notifier.notified).toEqual([f.id]);
    expect(f.events.of(CatalogChanged)).toEqual([new CatalogChanged(f.id)]);
    expect(f.discovery.discoveries).toEqual([]);
    expect(f.discovery.released).toEqual([]);
    expect(f.circuits.snapshot(f.id, f.clock.now().getTime()).state).toBe('open');
  });

  it('lets go of the old connection and its circuit when the way to reach the upstream changes, and discovers again', async () => {
    const f = setup(aSource({ upstream: LEGACY }));
    f.tripCircuit(f.id);
    f.discovery.answer('demo', aListing(['one', 'two']));

    await f.update({ args: ['/srv/demo/other.js'] });

    expect(f.discovery.released).toEqual([f.id]);
    expect(f.circuits.snapshot(f.id, f.clock.now().getTime()).state).toBe('closed');
    expect(f.discovery.discoveries.map((d) => d.target.args)).toEqual([['/srv/demo/other.js']]);
    expect(f.sources.stored(f.id)).toMatchObject({ args: ['/srv/demo/other.js'], health: 'healthy' });
    expect(f.tools.all().map((tool) => tool.qualifiedName)).toEqual(['demo__one', 'demo__two']);
  });

  it('merges a partial circuit breaker with the stored one', async () => {
    const f = setup(aSource());
    await f.update({ circuitBreaker: { failureThreshold: 2 } as SourceChangesInput['circuitBreaker'] });
    expect(f.sources.stored(f.id)?.circuitBreaker).toEqual({ failureThreshold: 2, resetTimeoutMs: 30_000 });
  });

  it('audits disabling as source.disabled and lets go of the connection; enabling as source.enabled, and discovers', async () => {
    const f = setup(aSource());
    await f.update({ enabled: false });
    expect(f.audit.events.map((event) => event.action)).toEqual(['source.disabled']);
    expect(f.discovery.released).toEqual([f.id]);
    expect(f.discovery.discoveries).toEqual([]);

    await f.update({ enabled: true });
    expect(f.audit.events.map((event) => event.action)).toEqual(['source.disabled', 'source.enabled']);
    expect(f.discovery.discoveries).toHaveLength(1);
  });

  it('refuses a version that is not the stored one, with STALE_VERSION on version', async () => {
    const f = setup(aSource({ version: 3 }));
    await expect(f.update({ description: 'x', version: 2 })).rejects.toMatchObject({
      code: 'STALE_VERSION',
      kind: 'conflict',
      details: [{ path: 'version', message: 'is not the current version' }],
    });
    await f.update({ description: 'x', version: 3 });
    expect(f.sources.stored(f.id)).toMatchObject({ description: 'x', version: 4 });
  });

  it('answers SOURCE_NOT_FOUND for a source that is not live', async () => {
    const f = setup(aSource({ deletedAt: new Date('2026-01-01T00:00:00Z') }));
    await expect(f.update({ description: 'x' })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND', kind: 'not_found' });
  });

  it('reports the shape problems with those of the connection as it would be, and stores nothing', async () => {
    const f = setup(aSource());
    const problems = async (changes: SourceChangesInput, shape: ProblemDetail[]) => {
      const error = await rejection(f.update(changes, shape));
      return [error.code, ...error.details.map((problem) => problem.path).sort()];
    };

    expect(await problems({ command: 'no-such-binary', env: { TOKEN: '${secret:MISSING}' } }, [{ path: 'timeoutMs', message: 'must be at least 1' }])).toEqual([
      'VALIDATION_FAILED',
      'command',
      'env.TOKEN',
      'timeoutMs',
    ]);
    // Without a transport it can keep, the connection is not judged.
    expect(await problems({ command: 'no-such-binary' }, [{ path: 'transport', message: 'cannot be changed' }])).toEqual(['VALIDATION_FAILED', 'transport']);
    expect(f.sources.stored(f.id)?.version).toBe(1);
    expect(f.audit.events).toEqual([]);
  });

  it('refuses stdio settings on a remote source', async () => {
    const f = setup(aRemoteSource());
    await expect(f.update({ lifecycle: 'singleton', command: 'node' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [
        { path: 'command', message: 'applies only to stdio sources' },
        { path: 'lifecycle', message: 'applies only to stdio sources' },
      ],
    });
  });

  it('audits env and header changes with their references and without any literal value', async () => {
    const f = setup(aRemoteSource({ headers: { 'X-Api-Key': 'typed-in-key' } }), { TOKEN: 'sk-live-0123456789' });
    await f.update({ headers: { Authorization: 'Bearer ${secret:TOKEN}' }, url: 'https://mcp.example.com/mcp?token=abc' });

    const [event] = f.audit.events;
    expect(event?.details).toEqual({
      changed: ['url', 'headers'],
      before: { url: 'https://mcp.example.com/mcp', headers: { 'X-Api-Key': '***' } },
      after: { url: 'https://mcp.example.com/mcp?token=***', headers: { Authorization: '*** ${secret:TOKEN}' } },
    });
    expect(JSON.stringify(f.sources.stored(f.id))).not.toContain('sk-live-0123456789');
  });
});

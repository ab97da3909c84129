import { CatalogChanged, InventorySeen } from '../../../../shared/catalog-events.js';
import { aRemoteSource, aSource } from '../../testing/builders.js';
import { aListing } from '../../testing/fake-upstream-discovery.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import type { Source } from '../../domain/source.js';

const TOKEN = 'sk-live-0123456789abcdef';

function setup(source: Source = aSource()) {
  const f = sourcesFixture({ sources: [source], secrets: { TOKEN } });
  return { ...f, id: source.id };
}

describe('RefreshCoordinator', () => {
  it('stores the tools, the era and the health a discovery finds, and tells the catalog and the other processes', async () => {
    const f = setup();
    f.discovery.answer('demo', aListing(['echo'], { skippedTools: [{ name: 'bad name', reason: 'is not a valid name' }] }));

    expect(await f.refresher.refresh(f.id)).toEqual({ ok: true, changes: { added: 1, changed: 0, deprecated: 0, restored: 0, unchanged: 0 } });

    expect(f.sources.stored(f.id)).toMatchObject({
      health: 'healthy',
      lastSuccessAt: f.clock.now(),
      inventoryHash: expect.any(String),
      upstream: { era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'fake-upstream' }, skippedTools: [{ name: 'bad name', reason: 'is not a valid name' }] },
    });
    expect(f.tools.all().map((tool) => tool.qualifiedName)).toEqual(['demo__echo']);
    expect(f.events.published).toEqual([new CatalogChanged(f.id)]);
    expect(f.notifier.notified).toEqual([f.id]);
    expect(f.metrics.refreshes).toEqual([{ ok: true, seconds: expect.any(Number) }]);
  });

  it('tells only that the inventory was seen when a refresh finds it as it was, and reuses the era recorded', async () => {
    const f = setup();
    f.discovery.answer('demo', aListing(['echo']));
    await f.refresher.refresh(f.id);

    expect(await f.refresher.refresh(f.id)).toMatchObject({ ok: true, changes: { unchanged: 1, added: 0 } });
    expect(f.events.published).toEqual([new CatalogChanged(f.id), new InventorySeen(f.id)]);
    expect(f.notifier.notified).toEqual([f.id]);
    expect(f.discovery.discoveries.map((d) => d.target.era)).toEqual([undefined, 'legacy']);
  });

  it('joins a refresh under way instead of starting another', async () => {
    const f = setup();
    const upstream = f.discovery.hold('demo');

    const first = f.refresher.refresh(f.id);
    const second = f.refresher.refresh(f.id);
    await upstream.started;
    expect(f.refresher.underWay(f.id)).toEqual({ since: f.clock.now(), progress: 'starting' });
    upstream.finish(aListing(['echo']));

    expect(await second).toBe(await first);
    expect(f.discovery.discoveries).toHaveLength(1);
    expect(f.refresher.underWay(f.id)).toBeUndefined();
  });

  it('shows what a discovery under way has got to, with credentials in URLs masked', async () => {
    const f = setup();
    f.discovery.answer('demo', (_target, options) => {
      options.onProgress?.(() => 'connecting to https://mcp.example.com/mcp?token=abc');
      return new Promise(() => undefined);
    });
    void f.refresher.refresh(f.id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(f.refresher.underWay(f.id)?.progress).toBe('connecting to https://mcp.example.com/mcp?token=***');
    await f.refresher.cancel(f.id);
  });

  it('records a failure on the source without any secret value the upstream echoed', async () => {
    const f = setup(aRemoteSource({ name: 'demo', headers: { Authorization: 'Bearer ${secret:TOKEN}' } }));
    f.discovery.answer('demo', new Error(`401 from https://mcp.example.com/mcp?api_key=abc: bad token Bearer ${TOKEN}`));

    const outcome = await f.refresher.refresh(f.id);

    expect(outcome).toEqual({ ok: false, error: expect.stringContaining('401 from https://mcp.example.com/mcp?api_key=***') });
    const stored = f.sources.stored(f.id)!;
    expect(stored).toMatchObject({ health: 'unhealthy', consecutiveFailures: 1 });
    expect(stored.lastError).not.toContain(TOKEN);
    expect(JSON.stringify(outcome)).not.toContain(TOKEN);
    expect(f.events.published).toEqual([new CatalogChanged(f.id)]);
    expect(f.metrics.refreshes).toEqual([{ ok: false, seconds: expect.any(Number) }]);
  });

  it('records nothing for a refresh stopped by cancel', async () => {
    const f = setup();
    f.discovery.answer('demo', () => new Promise(() => undefined));
    const refresh = f.refresher.refresh(f.id);
    await f.refresher.cancel(f.id);
    expect(await refresh).toEqual({ ok: false, error: 'the source was changed or removed' });
    expect(f.sources.stored(f.id)).toMatchObject({ health: 'unknown', consecutiveFailures: 0, version: 1 });
    expect(f.events.published).toEqual([new InventorySeen(f.id)]);
  });

  it('keeps nothing a discovery found for a source removed while it ran', async () => {
    const f = setup();
    f.discovery.answer('demo', async () => {
      const source = (await f.sources.findLive(f.id))!;
      source.remove(f.clock.now());
      await f.sources.save(source);
      return aListing(['echo']);
    });
    expect(await f.refresher.refresh(f.id)).toEqual({ ok: false, error: 'the source was removed during the refresh' });
    expect(f.tools.all()).toEqual([]);
    expect(f.events.published).toEqual([new CatalogChanged(f.id)]);
  });

  it('refuses a source that is not live with SOURCE_NOT_FOUND, telling the catalog to read it again', async () => {
    const f = setup(aSource({ deletedAt: new Date('2026-01-01T00:00:00Z') }));
    await expect(f.refresher.refresh(f.id)).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    expect(f.events.published).toEqual([new CatalogChanged(f.id)]);
  });
});

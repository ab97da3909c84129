import { CatalogChanged } from '../../../../shared/catalog-events.js';
import { SourceRemoved } from '../../domain/source-removed.event.js';
import { aSourceTool } from '../../../inventory/testing/builders.js';
import { aSource } from '../../testing/builders.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import { RemoveSourceCommand } from './remove-source.command.js';
import { RemoveSourceHandler } from './remove-source.handler.js';

const demo = aSource({ name: 'demo' });
const other = aSource({ name: 'other' });

function setup() {
  const f = sourcesFixture({
    sources: [demo, other],
    tools: [aSourceTool(demo.id, 'demo__echo'), aSourceTool(demo.id, 'demo__add'), aSourceTool(other.id, 'other__echo')],
  });
  const handler = new RemoveSourceHandler(f.sources, f.inventory, f.audit, f.refresher, f.discovery, f.uow, f.clock, f.events.bus, f.circuits, f.notifier);
  return { ...f, remove: (idOrName: string) => handler.execute(new RemoveSourceCommand(idOrName, 'admin')) };
}

describe('RemoveSourceHandler', () => {
  it('keeps the source and its tools for history, out of use, and audits how many tools it retired', async () => {
    const f = setup();
    await f.remove('demo');

    expect(f.sources.stored(demo.id)).toMatchObject({ enabled: false, deletedAt: f.clock.now() });
    expect(await f.sources.findLive('demo')).toBeUndefined();
    expect(f.tools.all().map((tool) => [tool.qualifiedName, tool.retiredAt !== null])).toEqual([
      ['demo__add', true],
      ['demo__echo', true],
      ['other__echo', false],
    ]);
    expect(f.audit.events).toEqual([
      { actor: 'admin', action: 'source.removed', targetType: 'source', targetId: demo.id, targetName: 'demo', details: { retiredTools: 2 } },
    ]);
    expect(f.notifier.notified).toEqual([demo.id]);
    expect(f.events.of(CatalogChanged)).toEqual([new CatalogChanged(demo.id)]);
    // What it was, for whoever kept something for it (its callers' connections).
    expect(f.events.of(SourceRemoved)).toEqual([new SourceRemoved({ id: demo.id, name: 'demo', url: demo.snapshot().url, upstreamAuth: demo.snapshot().upstreamAuth }, 'admin')]);
  });

  it('stops a refresh under way, forgets the processes, home and circuit of the source', async () => {
    const f = setup();
    f.discovery.answer('demo', () => new Promise(() => undefined));
    const refresh = f.refresher.refresh(demo.id);
    f.tripCircuit(demo.id);

    await f.remove(demo.id);

    await expect(refresh).resolves.toMatchObject({ ok: false, error: 'the source was changed or removed' });
    expect(f.refresher.underWay(demo.id)).toBeUndefined();
    expect(f.discovery.forgotten).toEqual([demo.id]);
    expect(f.circuits.snapshot(demo.id, f.clock.now().getTime()).state).toBe('closed');
  });

  it('answers SOURCE_NOT_FOUND for a name no live source has, and changes nothing', async () => {
    const f = setup();
    await f.remove('demo');
    await expect(f.remove('demo')).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND', kind: 'not_found' });
    expect(f.audit.events).toHaveLength(1);
    expect(f.discovery.forgotten).toEqual([demo.id]);
  });
});

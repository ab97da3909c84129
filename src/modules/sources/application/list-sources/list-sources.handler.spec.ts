import { aSource, aStoredSourceView } from '../../testing/builders.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import { ListSourcesHandler } from './list-sources.handler.js';
import { ListSourcesQuery } from './list-sources.query.js';

const older = aStoredSourceView({ name: 'older', createdAt: '2026-01-01T00:00:00.000Z' });
const newer = aStoredSourceView({ name: 'newer', createdAt: '2026-01-02T00:00:00.000Z', enabled: false });
const source = aSource({ id: newer.id, name: 'newer', enabled: false });

function setup() {
  const f = sourcesFixture({ views: [older, newer], sources: [source] });
  const handler = new ListSourcesHandler(f.views, f.circuits, f.refresher, f.clock);
  return { ...f, list: (query: ListSourcesQuery) => handler.execute(query) };
}

describe('ListSourcesHandler', () => {
  it('answers the page the read side gives, each source with its live state, and the cursor of the next', async () => {
    const f = setup();
    f.tripCircuit(older.id);
    const upstream = f.discovery.hold('newer');
    void f.refresher.refresh(newer.id);
    await upstream.started;

    const first = await f.list(new ListSourcesQuery({}, undefined, 1));
    expect(first.items.map((item) => [item.name, item.circuit.state, item.discovery])).toEqual([['newer', 'closed', { since: f.clock.now().toISOString(), progress: 'starting' }]]);
    const second = await f.list(new ListSourcesQuery({}, first.nextCursor!, 1));
    expect(second).toMatchObject({ items: [{ name: 'older', circuit: { state: 'open' }, discovery: null }], nextCursor: null });
    await f.refresher.cancel(newer.id);
  });

  it('passes the filter on', async () => {
    const f = setup();
    const page = await f.list(new ListSourcesQuery({ enabled: false }, undefined, 10));
    expect(page.items.map((item) => item.name)).toEqual(['newer']);
  });
});

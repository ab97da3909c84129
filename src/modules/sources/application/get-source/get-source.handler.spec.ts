import { aStoredSourceView } from '../../testing/builders.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import { GetSourceHandler } from './get-source.handler.js';
import { GetSourceQuery } from './get-source.query.js';

const view = aStoredSourceView({ name: 'demo', toolCount: 3 });

function setup() {
  const f = sourcesFixture({ views: [view] });
  const handler = new GetSourceHandler(f.views, f.circuits, f.refresher, f.clock);
  return { ...f, get: (idOrName: string) => handler.execute(new GetSourceQuery(idOrName)) };
}

describe('GetSourceHandler', () => {
  it('answers the stored view with a closed circuit and no discovery under way', async () => {
    const f = setup();
    expect(await f.get('demo')).toEqual({
      ...view,
      circuit: { state: 'closed', consecutiveFailures: 0, openedAt: null, retryAt: null },
      discovery: null,
    });
  });

  it('adds the state of its circuit in this process', async () => {
    const f = setup();
    const openedAt = f.clock.now();
    f.tripCircuit(view.id);
    expect((await f.get(view.id)).circuit).toEqual({
      state: 'open',
      consecutiveFailures: 1,
      openedAt: openedAt.toISOString(),
      retryAt: new Date(openedAt.getTime() + 60_000).toISOString(),
    });
  });

  it('answers SOURCE_NOT_FOUND, naming what was asked for', async () => {
    const f = setup();
    await expect(f.get('nope')).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND', kind: 'not_found', message: 'No source with id or name "nope".' });
  });
});

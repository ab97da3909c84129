import { aToolView } from '../../testing/builders.js';
import { InMemoryToolViews } from '../../testing/in-memory-tool-views.js';
import { ListToolsHandler } from './list-tools.handler.js';
import { ListToolsQuery } from './list-tools.query.js';

describe('ListToolsHandler', () => {
  const handler = new ListToolsHandler(
    new InMemoryToolViews([aToolView('demo__echo'), aToolView('demo__add', { status: 'deprecated' }), aToolView('other__echo', { enabled: false })]),
  );
  const names = async (query: ListToolsQuery) => (await handler.execute(query)).items.map((tool) => tool.qualifiedName);

  it('answers the page the read side has for the filter, with the cursor of the next', async () => {
    const first = await handler.execute(new ListToolsQuery({}, undefined, 1));
    expect(first.items.map((tool) => tool.qualifiedName)).toEqual(['demo__echo']);
    expect(await names(new ListToolsQuery({}, first.nextCursor!, 1))).toEqual(['other__echo']);
    expect(await names(new ListToolsQuery({ source: 'demo', status: 'all' }, undefined, 10))).toEqual(['demo__add', 'demo__echo']);
    expect(await names(new ListToolsQuery({ enabled: false }, undefined, 10))).toEqual(['other__echo']);
  });
});

import { aToolView } from '../../testing/builders.js';
import { InMemoryToolViews } from '../../testing/in-memory-tool-views.js';
import { GetToolHandler } from './get-tool.handler.js';
import { GetToolQuery } from './get-tool.query.js';

describe('GetToolHandler', () => {
  const echo = aToolView('demo__echo');
  const handler = new GetToolHandler(new InMemoryToolViews([echo, aToolView('demo__add')]));

  it('answers the tool the read side has under that name', async () => {
    expect(await handler.execute(new GetToolQuery('demo__echo'))).toEqual(echo);
  });

  it('answers TOOL_NOT_FOUND, naming what was asked for (at most 100 characters)', async () => {
    await expect(handler.execute(new GetToolQuery('x'.repeat(300)))).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
      kind: 'not_found',
      message: `No tool named "${'x'.repeat(100)}".`,
    });
  });
});

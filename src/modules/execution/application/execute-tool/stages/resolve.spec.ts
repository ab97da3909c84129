import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('ResolveStage', () => {
  it('finds the route of the tool the call names, read once for the calls that follow', async () => {
    const route = aRoute('everything__echo');
    const harness = new ExecuteToolHarness().withTool(route);
    const first = harness.newCall({ qualifiedName: 'everything__echo' });
    const second = harness.newCall({ qualifiedName: 'everything__echo' });
    expect(await harness.stages.resolve.run(first)).toBeUndefined();
    await harness.stages.resolve.run(second);
    expect([first.route, second.route]).toEqual([route, route]);
    expect(harness.reader.reads).toBe(1);
  });

  it('refuses nothing: an unknown name leaves the call without a route, for the intake to refuse', async () => {
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ qualifiedName: 'nothing__here' });
    expect(await harness.stages.resolve.run(call)).toBeUndefined();
    expect(call.route).toBeUndefined();
  });
});

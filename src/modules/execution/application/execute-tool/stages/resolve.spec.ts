import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';
import { aGroup } from '../../../../groups/testing/builders.js';

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

  it("through a group, finds the group's view and the tool it serves under the name called, and only that name", async () => {
    const harness = new ExecuteToolHarness().withTool(aRoute('everything__echo')).withGroup(aGroup('bot', { include: ['everything__echo'], overrides: { everything__echo: { name: 'say' } } }));
    const byServedName = harness.newCall({ group: 'bot', qualifiedName: 'say' });
    await harness.stages.resolve.run(byServedName);
    expect([byServedName.groupView?.group.name, byServedName.served?.qualifiedName, byServedName.route?.tool.qualifiedName]).toEqual(['bot', 'everything__echo', 'everything__echo']);
    const byQualifiedName = harness.newCall({ group: 'bot', qualifiedName: 'everything__echo' });
    await harness.stages.resolve.run(byQualifiedName);
    expect([byQualifiedName.groupView?.group.name, byQualifiedName.served, byQualifiedName.route]).toEqual(['bot', undefined, undefined]);
    const noGroup = harness.newCall({ group: 'nope', qualifiedName: 'say' });
    await harness.stages.resolve.run(noGroup);
    expect([noGroup.groupView, noGroup.route]).toEqual([undefined, undefined]);
  });
});

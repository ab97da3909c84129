import { CatalogChanged } from '../../../../../shared/catalog-events.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('LocateUpstreamStage', () => {
  const route = aRoute('everything__echo');

  it('finds how to reach the source, and the scrubber of its secrets', async () => {
    const harness = new ExecuteToolHarness().withTool(route, [{ name: 'TOKEN', value: 'the-token-value' }]);
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    expect(await harness.stages.locateUpstream.run(call)).toBeUndefined();
    expect(call.target?.sourceId).toBe(route.source.id);
    expect(call.scrubber.text('x the-token-value')).toBe('x [secret:TOKEN]');
  });

  it('refuses TOOL_NOT_FOUND when the source is gone since its route was read', async () => {
    const harness = new ExecuteToolHarness().withTool(route);
    harness.targets.targets.clear();
    harness.routes.handle(new CatalogChanged(route.source.id));
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    const refusal = await harness.stages.locateUpstream.run(call);
    expect([refusal?.status, refusal?.error]).toEqual(['rejected', { code: 'TOOL_NOT_FOUND', message: 'No tool named "everything__echo".', retryable: false }]);
    expect(call.scrubber.empty).toBe(true);
  });
});

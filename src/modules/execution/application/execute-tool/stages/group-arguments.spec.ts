import { aGroup } from '../../../../groups/testing/builders.js';
import { httpStatusOf } from '../../../interface/execution-http-status.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('GroupArgumentsStage (and resolving a name through a group)', () => {
  const route = aRoute('ev__echo', {
    tool: { inputSchema: { type: 'object', properties: { message: { type: 'string' }, times: { type: 'number' }, tone: { type: 'string' } }, required: ['message', 'times'] } },
  });
  const support = aGroup('support', {
    include: ['ev__echo'],
    overrides: { ev__echo: { name: 'say', locked: { message: 'locked phrase' }, defaults: { times: 2 } } },
  });
  const harness = () => new ExecuteToolHarness().withTool(route).withGroup(support);

  it('resolves the served name to its tool, and adds the locked value and the defaults the caller left out', async () => {
    const h = harness();
    const call = h.newCall({ group: 'support', qualifiedName: 'say', arguments: { tone: 'calm' } });
    await h.stages.resolve.run(call);
    expect([call.route?.tool.qualifiedName, call.served?.servedName]).toEqual(['ev__echo', 'say']);
    expect(h.stages.groupArguments.run(call)).toBeUndefined();
    expect(call.given).toEqual({ tone: 'calm', times: 2, message: 'locked phrase' });
  });

  it("keeps the caller's value of a defaulted argument, and takes its null as left out", async () => {
    const h = harness();
    for (const [times, expected] of [
      [5, 5],
      [null, 2],
    ] as const) {
      const call = h.newCall({ group: 'support', qualifiedName: 'say', arguments: { times } });
      await h.stages.resolve.run(call);
      h.stages.groupArguments.run(call);
      expect(call.given).toEqual({ times: expected, message: 'locked phrase' });
    }
  });

  it('refuses a locked argument the caller gave, naming it and the group (ARGUMENT_LOCKED, 400)', async () => {
    const h = harness();
    const call = h.newCall({ group: 'support', qualifiedName: 'say', arguments: { message: 'mine', times: 1 } });
    await h.stages.resolve.run(call);
    const refusal = h.stages.groupArguments.run(call);
    expect([refusal?.status, refusal?.error]).toEqual([
      'invalid_arguments',
      {
        code: 'ARGUMENT_LOCKED',
        message: 'Group "support" fixes "message" of say: leave it out.',
        retryable: false,
        details: [{ path: 'arguments.message', message: 'is locked by group "support"' }],
      },
    ]);
  });

  it('lets calls outside a group, and arguments that are not an object, pass untouched', async () => {
    const h = harness();
    const plain = h.newCall({ qualifiedName: 'ev__echo', arguments: { message: 'x' } });
    await h.stages.resolve.run(plain);
    expect(h.stages.groupArguments.run(plain)).toBeUndefined();
    expect(plain.given).toEqual({ message: 'x' });
    const odd = h.newCall({ group: 'support', qualifiedName: 'say', arguments: [1] });
    await h.stages.resolve.run(odd);
    expect(h.stages.groupArguments.run(odd)).toBeUndefined();
    expect(odd.given).toEqual([1]);
  });

  it('through the pipeline: the upstream gets the group’s arguments, and the record names the tool, the group and what was sent', async () => {
    const h = harness();
    const { record } = await h.call({ group: 'support', qualifiedName: 'say', arguments: {} });
    expect(record.status).toBe('succeeded');
    expect(h.invoker.requests.map((request) => [request.toolName, request.arguments])).toEqual([['echo', { times: 2, message: 'locked phrase' }]]);
    expect([record.qualifiedName, record.group, record.arguments]).toEqual(['ev__echo', 'support', { times: 2, message: 'locked phrase' }]);
  });

  it('refuses an unknown group (GROUP_NOT_FOUND, 404) and a name the group does not serve (TOOL_NOT_FOUND), recording the group', async () => {
    const h = harness();
    const unknownGroup = (await h.call({ group: 'nope', qualifiedName: 'say' })).record;
    expect([unknownGroup.error?.code, httpStatusOf(unknownGroup), unknownGroup.group]).toEqual(['GROUP_NOT_FOUND', 404, 'nope']);
    // Its qualified name is not a name the group serves it under.
    const unknownTool = (await h.call({ group: 'support', qualifiedName: 'ev__echo' })).record;
    expect([unknownTool.error?.code, unknownTool.error?.message, httpStatusOf(unknownTool)]).toEqual(['TOOL_NOT_FOUND', 'No tool named "ev__echo" in group "support".', 404]);
    const locked = (await h.call({ group: 'support', qualifiedName: 'say', arguments: { message: 'mine' } })).record;
    expect([locked.status, locked.error?.code, httpStatusOf(locked), locked.arguments]).toEqual(['invalid_arguments', 'ARGUMENT_LOCKED', 400, { message: 'mine' }]);
    expect(h.invoker.requests).toEqual([]);
  });
});

import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('RecordStartStage', () => {
  it('records a call to a tool that is not read-only as interrupted-until-told-otherwise, arguments redacted and storable', async () => {
    const route = aRoute('everything__echo', {
      tool: { inputSchema: { type: 'object', properties: { message: { type: 'string' }, pin: { type: 'string', writeOnly: true } } } },
    });
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ qualifiedName: 'everything__echo', arguments: { message: 'a\ud800', pin: '1234', password: 'x' } }, route, { channel: 'mcp' });
    expect(await harness.stages.recordStart.run(call)).toBeUndefined();
    expect(harness.recorder.started).toEqual([
      {
        id: call.id,
        toolId: route.tool.id,
        qualifiedName: 'everything__echo',
        sourceId: route.source.id,
        sourceName: 'everything',
        definitionHash: route.tool.definitionHash,
        caller: { principalId: 'key-1', principalName: 'agent' },
        channel: 'mcp',
        arguments: { message: 'a\\ud800', pin: '[redacted]', password: '[redacted]' },
        status: 'interrupted',
        isError: false,
        result: null,
        error: null,
        attempts: 1,
        startedAt: call.startedAt,
        durationMs: 0,
        traceId: null,
      },
    ]);
  });

  it('keeps the group the call came through and the pre interceptors that ran, for the interrupted execution it may become', async () => {
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ group: 'support', qualifiedName: 'say' }, aRoute('everything__echo'));
    const run = { name: 'limits', kind: 'defaults', phase: 'pre' as const, decision: 'modify' as const, changes: { paths: ['arguments.limit'] }, durationMs: 0.05 };
    call.interceptors = [run];
    await harness.stages.recordStart.run(call);
    expect(harness.recorder.started[0]).toMatchObject({ group: 'support', interceptors: [run] });
  });

  it('records nothing for a read-only tool, without waiting', () => {
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, aRoute('everything__echo', { tool: { annotations: { readOnlyHint: true } } }));
    expect(harness.stages.recordStart.run(call)).toBeUndefined();
    expect(harness.recorder.started).toEqual([]);
  });

  it('refuses RECORD_UNAVAILABLE when the start cannot be written', async () => {
    const harness = new ExecuteToolHarness();
    harness.recorder.startFailure = new Error('the journal is full');
    const refusal = await harness.stages.recordStart.run(harness.newCall({ qualifiedName: 'everything__echo' }, aRoute('everything__echo')));
    expect([refusal?.status, refusal?.error]).toEqual([
      'rejected',
      { code: 'RECORD_UNAVAILABLE', message: 'The call could not be recorded, so it was not sent.', retryable: true, retryAfterMs: 1000 },
    ]);
  });
});

import { SecretScrubber } from '../../../../../shared/secret-scrubber.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';
import { refuse, type Outcome } from '../outcome.js';
import { scrubOutcome } from './scrub.js';

describe('RecordOutcomeStage', () => {
  const route = aRoute('everything__echo');
  const succeeded = (text: string): Outcome => ({ status: 'succeeded', isError: false, error: null, result: { content: [{ type: 'text', text }], truncated: false, originalBytes: text.length + 27 } });

  it('for large arguments or results, lets other work run between its passes, and records the same', async () => {
    const order = async (heavy: boolean) => {
      const harness = new ExecuteToolHarness();
      const call = harness.newCall({ qualifiedName: 'everything__echo', arguments: { message: 'hi' } }, route);
      const seen: string[] = [];
      const recording = harness.stages.recordOutcome.run(call, succeeded('Echo: hi'), heavy).then((answer) => {
        seen.push('recorded');
        return answer;
      });
      setImmediate(() => seen.push('other work'));
      const answer = await recording;
      await new Promise((resolve) => setImmediate(resolve));
      return { seen, stored: { ...harness.recorder.records[0], id: undefined, startedAt: undefined, durationMs: undefined }, answer: { ...answer, id: undefined, startedAt: undefined, durationMs: undefined } };
    };
    const light = await order(false);
    const heavy = await order(true);
    expect(light.seen).toEqual(['recorded', 'other work']);
    expect(heavy.seen).toEqual(['other work', 'recorded']);
    expect(heavy.stored).toEqual(light.stored);
    expect(heavy.answer).toEqual(light.answer);
  });

  it('records the call and answers the record as the caller gets it', async () => {
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ qualifiedName: 'everything__echo', arguments: { message: 'hi', token: 't' } }, route);
    call.attempts = 2;
    const answer = await harness.stages.recordOutcome.run(call, succeeded('Echo: hi'));
    expect(answer).toEqual({
      id: call.id,
      toolId: route.tool.id,
      qualifiedName: 'everything__echo',
      sourceId: route.source.id,
      sourceName: 'everything',
      definitionHash: route.tool.definitionHash,
      caller: { principalId: 'key-1', principalName: 'agent' },
      channel: 'rest',
      arguments: { message: 'hi', token: '[redacted]' },
      status: 'succeeded',
      isError: false,
      error: null,
      result: { content: [{ type: 'text', text: 'Echo: hi' }], truncated: false, originalBytes: 35 },
      attempts: 2,
      startedAt: call.startedAt,
      durationMs: expect.any(Number),
      traceId: null,
    });
    expect(harness.recorder.records).toEqual([answer]);
  });

  it('records a call without a tool under the name it gave, cut to 200 characters', async () => {
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ qualifiedName: 'n'.repeat(300) });
    const answer = await harness.stages.recordOutcome.run(call, refuse('rejected', 'TOOL_NOT_FOUND', 'No tool.'));
    expect(answer).toMatchObject({ toolId: null, sourceId: null, sourceName: null, definitionHash: null, qualifiedName: 'n'.repeat(200), result: null, attempts: 0 });
  });

  it('stores what PostgreSQL can hold: the result capped, text it refuses escaped', async () => {
    const harness = new ExecuteToolHarness({ config: { storedResultBytes: 1024 } });
    const call = harness.newCall({ qualifiedName: 'everything__echo', arguments: { message: 'a\u0000' } }, route);
    const answer = await harness.stages.recordOutcome.run(call, succeeded('x'.repeat(3000)));
    const [stored] = harness.recorder.records;
    expect(answer.result).toMatchObject({ truncated: false, originalBytes: 3027 });
    expect(stored!.result).toMatchObject({ truncated: true, originalBytes: 3027 });
    expect(stored!.arguments).toEqual({ message: 'a\\u0000' });
    expect(answer.arguments).toEqual({ message: 'a\u0000' });
  });

  it('records the interceptors that ran, in order, their texts and keys made storable in the stored copy', async () => {
    const harness = new ExecuteToolHarness();
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    const runs = [
      { name: 'look', kind: 'webhook', phase: 'pre' as const, decision: 'allow' as const, warning: 'odd \ud800', durationMs: 0.5 },
      { name: 'mask', kind: 'redact', phase: 'post' as const, decision: 'modify' as const, changes: { counts: { 'e\u0000mail': 1 } }, durationMs: 0.25 },
    ];
    call.interceptors = runs;
    const answer = await harness.stages.recordOutcome.run(call, succeeded('x'));
    expect(answer.interceptors).toEqual(runs);
    expect(harness.recorder.records[0]!.interceptors).toEqual([
      { ...runs[0], warning: 'odd \\ud800' },
      { ...runs[1], changes: { counts: { 'e\\u0000mail': 1 } } },
    ]);
    call.interceptors = [];
    expect((await harness.stages.recordOutcome.run(harness.newCall({ qualifiedName: 'everything__echo' }, route), succeeded('x'))).interceptors).toBeUndefined();
  });

  it("measures again a result the scrubber changed, though the upstream's was within the cap", async () => {
    const harness = new ExecuteToolHarness({ config: { storedResultBytes: 1024 } });
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    const upstream = succeeded('abcd '.repeat(180));
    call.measuredResult = upstream.result!;
    const scrubbed = scrubOutcome(upstream, new SecretScrubber([{ name: 'A-SECRET-WITH-A-LONG-NAME', value: 'abcd' }]));
    await harness.stages.recordOutcome.run(call, scrubbed);
    expect(harness.recorder.records[0]!.result).toMatchObject({ truncated: true });

    const untouched = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    untouched.measuredResult = upstream.result!;
    await harness.stages.recordOutcome.run(untouched, upstream);
    expect(harness.recorder.records[1]!.result).toBe(upstream.result);
  });
});

import { InterceptorChain } from '../../../../interceptors/application/interceptor-chain.js';
import type { InterceptorSpec } from '../../../../interceptors/domain/interceptor.js';
import { FixedInterceptors } from '../../../../interceptors/testing/fixed-interceptors.js';
import { anInterceptor } from '../../../../interceptors/testing/interceptor-specs.js';
import { ScriptedEngine } from '../../../../interceptors/testing/scripted-engine.js';
import type { ExecutionResult } from '../../../../executions/domain/execution.js';
import { httpStatusOf } from '../../../interface/execution-http-status.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

const ECHO = 'everything__echo';
const SECRET = { name: 'API_TOKEN', value: 's3cr3t-v4lue-0f-the-source' };

function setUp(specs: InterceptorSpec[]) {
  const engine = new ScriptedEngine();
  const harness = new ExecuteToolHarness({ interceptorChain: new InterceptorChain(new FixedInterceptors(specs), [engine]) }).withTool(aRoute(ECHO), [SECRET]);
  return { harness, engine };
}

const masked = (text: string): ExecutionResult => ({ content: [{ type: 'text', text }] }) as ExecutionResult;

describe('InterceptResultStage (the post interceptors)', () => {
  it('answers and records the result an interceptor replaced, with every run of the call in order', async () => {
    const { harness, engine } = setUp([anInterceptor('look'), anInterceptor('mask', { phase: 'post' })]);
    harness.invoker.answers([{ type: 'text', text: 'call ada@example.com' }]);
    engine.answer('mask', { decision: 'modify', result: masked('call [email]'), changes: { paths: ['content[0].text'], counts: { email: 1 } } });
    const { record } = await harness.call({ qualifiedName: ECHO });
    expect(record.status).toBe('succeeded');
    expect(record.result).toMatchObject({ content: [{ type: 'text', text: 'call [email]' }], truncated: false });
    expect(harness.recorder.records[0]!.result!.content).toEqual([{ type: 'text', text: 'call [email]' }]);
    expect(record.interceptors!.map((run) => [run.name, run.phase, run.decision])).toEqual([
      ['look', 'pre', 'allow'],
      ['mask', 'post', 'modify'],
    ]);
    expect(record.interceptors![1]!.changes).toEqual({ paths: ['content[0].text'], counts: { email: 1 } });
  });

  it("turns a denial into the call's refusal: rejected INTERCEPTOR_DENIED (403), no result, and the tool's attempt kept", async () => {
    const { harness, engine } = setUp([anInterceptor('no-leaks', { phase: 'post' })]);
    engine.answer('no-leaks', { decision: 'deny', message: 'the result holds a card number' });
    const { record } = await harness.call({ qualifiedName: ECHO });
    expect(record).toMatchObject({ status: 'rejected', isError: false, result: null, attempts: 1, error: { code: 'INTERCEPTOR_DENIED', message: 'Interceptor "no-leaks" refused the call: the result holds a card number' } });
    expect(httpStatusOf(record)).toBe(403);
    expect(harness.invoker.requests).toHaveLength(1);
    expect(harness.recorder.records[0]!.interceptors).toEqual([{ name: 'no-leaks', kind: 'webhook', phase: 'post', decision: 'deny', message: 'the result holds a card number', durationMs: expect.any(Number) }]);
    expect(harness.metrics.calls[0]).toMatchObject({ status: 'rejected', upstreamSeconds: expect.any(Number) });
  });

  it("shows interceptors the result scrubbed of the source's secrets", async () => {
    const { harness, engine } = setUp([anInterceptor('look', { phase: 'post' })]);
    harness.invoker.answers([{ type: 'text', text: `token ${SECRET.value}` }]);
    await harness.call({ qualifiedName: ECHO });
    expect(engine.seen[0]!.call.result!.content).toEqual([{ type: 'text', text: 'token [secret:API_TOKEN]' }]);
  });

  it("runs on a tool's own error result, and not when no result came (upstream failure) or the upstream asks for input", async () => {
    const { harness, engine } = setUp([anInterceptor('look', { phase: 'post' })]);
    harness.invoker.answers([{ type: 'text', text: 'no such file' }], { isError: true });
    expect((await harness.call({ qualifiedName: ECHO })).record.interceptors).toHaveLength(1);
    harness.invoker.failWith('protocol', 'unknown tool', -32602);
    expect((await harness.call({ qualifiedName: ECHO })).record.interceptors).toBeUndefined();
    harness.invoker.next(() => ({ kind: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } }));
    expect((await harness.call({ qualifiedName: ECHO })).record.interceptors).toBeUndefined();
    expect(engine.seen).toHaveLength(1);
  });

  it('keeps the result as answered when a post interceptor fails with onError allow, and refuses with onError deny', async () => {
    const lenient = setUp([anInterceptor('flaky', { phase: 'post', onError: 'allow' })]);
    lenient.engine.answer('flaky', () => Promise.reject(new Error('scanner down')));
    const kept = (await lenient.harness.call({ qualifiedName: ECHO })).record;
    expect(kept.status).toBe('succeeded');
    expect(kept.result!.content).toEqual([{ type: 'text', text: '{"message":"hello"}' }]);
    expect(kept.interceptors![0]).toMatchObject({ decision: 'error', onError: 'allow', failure: 'scanner down' });

    const strict = setUp([anInterceptor('flaky', { phase: 'post', onError: 'deny' })]);
    strict.engine.answer('flaky', () => Promise.reject(new Error('scanner down')));
    const refused = (await strict.harness.call({ qualifiedName: ECHO })).record;
    expect(refused).toMatchObject({ status: 'rejected', result: null, error: { code: 'INTERCEPTOR_FAILED', retryable: true } });
    expect(httpStatusOf(refused)).toBe(503);
  });
});

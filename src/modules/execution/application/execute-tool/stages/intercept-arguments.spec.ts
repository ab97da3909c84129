import { aGroup } from '../../../../groups/testing/builders.js';
import { InterceptorChain } from '../../../../interceptors/application/interceptor-chain.js';
import type { InterceptorSpec } from '../../../../interceptors/domain/interceptor.js';
import { FixedInterceptors } from '../../../../interceptors/testing/fixed-interceptors.js';
import { anInterceptor } from '../../../../interceptors/testing/interceptor-specs.js';
import { ScriptedEngine } from '../../../../interceptors/testing/scripted-engine.js';
import { httpStatusOf } from '../../../interface/execution-http-status.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';
import { InterceptArgumentsStage } from './intercept-arguments.js';

const READ = 'files__read';
const route = aRoute(READ, {
  tool: {
    description: 'Reads a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'number' }, apiKey: { type: 'string' } }, required: ['path'] },
  },
});

function setUp(specs: InterceptorSpec[]) {
  const inForce = new FixedInterceptors(specs);
  const engine = new ScriptedEngine();
  const chain = new InterceptorChain(inForce, [engine]);
  const harness = new ExecuteToolHarness({ interceptorChain: chain }).withTool(route);
  return { harness, engine, inForce, chain };
}

describe('InterceptArgumentsStage (the pre interceptors)', () => {
  it('shows an interceptor the call: its tool, source, group, caller, channel, checked arguments and id', async () => {
    const { harness, engine } = setUp([anInterceptor('look')]);
    harness.withGroup(aGroup('support', { include: [READ] }));
    const { record } = await harness.call({ group: 'support', qualifiedName: 'read', arguments: { path: '/tmp/a', limit: null } }, { channel: 'mcp', caller: { principalId: 'key-7', principalName: 'bot' } });
    expect(engine.seen).toHaveLength(1);
    expect(engine.seen[0]!.call).toEqual({
      executionId: record.id,
      tool: { qualifiedName: READ, name: 'read', sourceName: 'files', inputSchema: route.tool.inputSchema, outputSchema: null, annotations: null, description: 'Reads a file.' },
      group: 'support',
      principal: { id: 'key-7', name: 'bot' },
      channel: 'mcp',
      arguments: { path: '/tmp/a' },
    });
    expect(engine.seen[0]!.phase).toBe('pre');
  });

  it('passes a call no interceptor applies to at once, without running anything', () => {
    const { harness, engine, chain } = setUp([anInterceptor('elsewhere', { scope: { source: 'git' } })]);
    const stage = new InterceptArgumentsStage(chain, harness.validator);
    const call = harness.newCall({ qualifiedName: READ, arguments: { path: '/tmp/a' } }, route);
    call.arguments = { path: '/tmp/a' };
    expect(stage.run(call)).toBeUndefined();
    expect(call.interceptors).toEqual([]);
    expect(engine.seen).toEqual([]);
  });

  it('sends the arguments an interceptor replaced, checked again; the record shows them as sent (redacted) with the run', async () => {
    const { harness, engine } = setUp([anInterceptor('limits')]);
    engine.answer('limits', (_s, _p, call) => ({ decision: 'modify', arguments: { ...call.arguments, limit: 10, apiKey: 'k-123' }, changes: { paths: ['arguments.limit', 'arguments.apiKey'] } }));
    const { record } = await harness.call({ qualifiedName: READ, arguments: { path: '/tmp/a' } });
    expect(record.status).toBe('succeeded');
    expect(harness.invoker.requests[0]!.arguments).toEqual({ path: '/tmp/a', limit: 10, apiKey: 'k-123' });
    expect(harness.validator.checked.map((checked) => checked.args)).toEqual([{ path: '/tmp/a' }, { path: '/tmp/a', limit: 10, apiKey: 'k-123' }]);
    expect(record.arguments).toEqual({ path: '/tmp/a', limit: 10, apiKey: '[redacted]' });
    expect(harness.recorder.started[0]!.arguments).toEqual(record.arguments);
    expect(record.interceptors).toEqual([{ name: 'limits', kind: 'webhook', phase: 'pre', decision: 'modify', changes: { paths: ['arguments.limit', 'arguments.apiKey'] }, durationMs: expect.any(Number) }]);
    expect(harness.recorder.started[0]!.interceptors).toEqual(record.interceptors);
    expect(harness.recorder.records[0]!.interceptors).toEqual(record.interceptors);
  });

  it('records the arguments as the caller sent them when no interceptor changed them, and no runs when none ran', async () => {
    const { harness } = setUp([anInterceptor('look')]);
    const looked = await harness.call({ qualifiedName: READ, arguments: { path: '/tmp/a', limit: null } });
    expect(looked.record.arguments).toEqual({ path: '/tmp/a', limit: null });
    expect(looked.record.interceptors).toHaveLength(1);
    const plain = await setUp([]).harness.call({ qualifiedName: READ, arguments: { path: '/tmp/a' } });
    expect(plain.record.interceptors).toBeUndefined();
  });

  it("makes replaced arguments the schema refuses that interceptor's failure: refused with the problems (onError deny), or dropped (onError allow)", async () => {
    const strict = setUp([anInterceptor('breaks-it', { onError: 'deny' })]);
    strict.engine.answer('breaks-it', { decision: 'modify', arguments: { limit: 3 }, changes: {} });
    const refused = await strict.harness.call({ qualifiedName: READ, arguments: { path: '/tmp/a' } });
    expect(refused.record).toMatchObject({ status: 'rejected', error: { code: 'INTERCEPTOR_FAILED', details: [{ path: 'arguments.path', message: 'is required' }] } });
    expect(refused.record.error!.message).toBe(`Interceptor "breaks-it" failed (the arguments it answered do not match the tool's input schema: arguments.path is required), so the call was refused.`);
    expect(httpStatusOf(refused.record)).toBe(503);
    expect(strict.harness.invoker.requests).toEqual([]);

    const lenient = setUp([anInterceptor('breaks-it', { onError: 'allow' })]);
    lenient.engine.answer('breaks-it', { decision: 'modify', arguments: { limit: 3 }, changes: {} });
    const allowed = await lenient.harness.call({ qualifiedName: READ, arguments: { path: '/tmp/a' } });
    expect(allowed.record.status).toBe('succeeded');
    expect(lenient.harness.invoker.requests[0]!.arguments).toEqual({ path: '/tmp/a' });
    expect(allowed.record.interceptors![0]).toMatchObject({ decision: 'error', onError: 'allow' });
  });

  it('refuses a denied call as rejected INTERCEPTOR_DENIED (403) naming the interceptor: nothing admitted, started or sent', async () => {
    const { harness, engine } = setUp([anInterceptor('no-etc', { order: 1 }), anInterceptor('never', { order: 2 })]);
    engine.answer('no-etc', (_s, _p, call) =>
      String(call.arguments.path).startsWith('/etc') ? { decision: 'deny', message: 'paths under /etc are off limits', details: [{ path: 'arguments.path', message: 'is under /etc' }] } : { decision: 'allow' },
    );
    const { record } = await harness.call({ qualifiedName: READ, arguments: { path: '/etc/passwd' } });
    expect(record).toMatchObject({
      status: 'rejected',
      result: null,
      attempts: 0,
      error: { code: 'INTERCEPTOR_DENIED', message: 'Interceptor "no-etc" refused the call: paths under /etc are off limits', retryable: false, details: [{ path: 'arguments.path', message: 'is under /etc' }] },
    });
    expect(httpStatusOf(record)).toBe(403);
    expect(record.interceptors).toEqual([{ name: 'no-etc', kind: 'webhook', phase: 'pre', decision: 'deny', message: 'paths under /etc are off limits', durationMs: expect.any(Number) }]);
    expect(harness.invoker.requests).toEqual([]);
    expect(harness.recorder.started).toEqual([]);
    expect(harness.timeline).toEqual(['recorded rejected']);
    expect(engine.seen.map((seen) => seen.name)).toEqual(['no-etc']);
  });

  it("answers a denial's own code: ARGUMENT_LOCKED is invalid_arguments (400); a code the pipeline gives another meaning is INTERCEPTOR_DENIED", async () => {
    const { harness, engine } = setUp([anInterceptor('locks')]);
    engine.answer('locks', { decision: 'deny', code: 'ARGUMENT_LOCKED', message: 'leave "limit" out', details: [{ path: 'arguments.limit', message: 'is locked' }] });
    const locked = (await harness.call({ qualifiedName: READ, arguments: { path: '/a', limit: 1 } })).record;
    expect([locked.status, locked.error?.code, httpStatusOf(locked)]).toEqual(['invalid_arguments', 'ARGUMENT_LOCKED', 400]);
    engine.answer('locks', { decision: 'deny', code: 'TOOL_NOT_FOUND', message: 'hidden' });
    const hidden = (await harness.call({ qualifiedName: READ, arguments: { path: '/a' } })).record;
    expect([hidden.status, hidden.error?.code, httpStatusOf(hidden)]).toEqual(['rejected', 'INTERCEPTOR_DENIED', 403]);
    // Nor may an interceptor send an MCP caller to a connect URL of its choosing.
    for (const code of ['UPSTREAM_CONSENT_REQUIRED', 'UPSTREAM_CREDENTIAL_REQUIRED']) {
      engine.answer('locks', { decision: 'deny', code, message: 'connect first', details: [{ path: 'connectUrl', message: 'https://evil.example/' }] });
      expect((await harness.call({ qualifiedName: READ, arguments: { path: '/a' } })).record.error?.code).toBe('INTERCEPTOR_DENIED');
    }
  });

  it('runs an interceptor scoped to a group only on calls through that group', async () => {
    const { harness } = setUp([anInterceptor('support-only', { scope: { group: 'support' } })]);
    harness.withGroup(aGroup('support', { include: [READ] }));
    expect((await harness.call({ qualifiedName: READ, arguments: { path: '/a' } })).record.interceptors).toBeUndefined();
    expect((await harness.call({ group: 'support', qualifiedName: 'read', arguments: { path: '/a' } })).record.interceptors?.map((run) => run.name)).toEqual(['support-only']);
  });

  it('sees interceptors created since the last call (the version of those in force moved)', async () => {
    const { harness, inForce, engine } = setUp([]);
    await harness.call({ qualifiedName: READ, arguments: { path: '/a' } });
    inForce.set([anInterceptor('new')]);
    engine.answer('new', { decision: 'deny', message: 'closed for maintenance' });
    expect((await harness.call({ qualifiedName: READ, arguments: { path: '/a' } })).record.error?.code).toBe('INTERCEPTOR_DENIED');
  });
});

import { CallerDeparture } from '../../../shared/caller-signal.js';
import { RecordingWorkMetrics } from '../../../shared/testing/recording-work-metrics.js';
import type { ExecutionResult } from '../../executions/domain/execution.js';
import type { InterceptedCall, InterceptorVerdict } from '../domain/intercepted-call.js';
import { argumentsHashOf } from '../domain/arguments-hash.js';
import { FixedInterceptors } from '../testing/fixed-interceptors.js';
import { anInterceptor } from '../testing/interceptor-specs.js';
import { ScriptedEngine } from '../testing/scripted-engine.js';
import { FAILED_CODE, InterceptorChain } from './interceptor-chain.js';

const RESULT: ExecutionResult = { content: [{ type: 'text', text: 'mail me at ada@example.com' }], truncated: false, originalBytes: 40 };

function aCall(overrides: Partial<InterceptedCall> = {}): InterceptedCall {
  return {
    executionId: '0190a7b2-0000-7000-8000-000000000001',
    tool: { qualifiedName: 'files__read', name: 'read', sourceName: 'files', inputSchema: { type: 'object' }, outputSchema: null, annotations: null, description: null },
    group: null,
    principal: { id: 'key-1', name: 'agent' },
    channel: 'rest',
    arguments: { path: '/tmp/a' },
    ...overrides,
  };
}

function chainOf(inForce: FixedInterceptors, engine = new ScriptedEngine(), metrics = new RecordingWorkMetrics()) {
  return { chain: new InterceptorChain(inForce, [engine], undefined, metrics), engine, metrics };
}

const names = (specs: readonly { name: string }[]) => specs.map((spec) => spec.name);

describe('InterceptorChain', () => {
  describe('which interceptors apply', () => {
    it('picks the enabled ones of the phase, by order and then by name', () => {
      const inForce = new FixedInterceptors([
        anInterceptor('zeta', { order: 10 }),
        anInterceptor('alpha', { order: 20 }),
        anInterceptor('beta', { order: 10 }),
        anInterceptor('off', { order: 1, enabled: false }),
        anInterceptor('later', { order: 1, phase: 'post' }),
      ]);
      const { chain } = chainOf(inForce);
      expect(names(chain.applying('pre', 'files', null, 'files__read'))).toEqual(['beta', 'zeta', 'alpha']);
      expect(names(chain.applying('post', 'files', null, 'files__read'))).toEqual(['later']);
    });

    it("matches every field of the scope: the source's name, the tools' patterns, the group", () => {
      const inForce = new FixedInterceptors([
        anInterceptor('everywhere'),
        anInterceptor('of-files', { scope: { source: 'files' } }),
        anInterceptor('reads', { scope: { tools: ['*__read', 'git__log'] } }),
        anInterceptor('files-writes', { scope: { source: 'files', tools: ['files__write*'] } }),
        anInterceptor('support-only', { scope: { group: 'support' } }),
        anInterceptor('support-files', { scope: { group: 'support', source: 'files' } }),
        anInterceptor('no-tools', { scope: { tools: [] } }),
      ]);
      const { chain } = chainOf(inForce);
      expect(names(chain.applying('pre', 'files', null, 'files__read'))).toEqual(['everywhere', 'of-files', 'reads']);
      expect(names(chain.applying('pre', 'files', null, 'files__write_file'))).toEqual(['everywhere', 'files-writes', 'of-files']);
      expect(names(chain.applying('pre', 'git', null, 'git__log'))).toEqual(['everywhere', 'reads']);
      expect(names(chain.applying('pre', 'git', null, 'git__status'))).toEqual(['everywhere']);
      // A scope with a group applies only to calls through that group.
      expect(names(chain.applying('pre', 'files', 'support', 'files__read'))).toEqual(['everywhere', 'of-files', 'reads', 'support-files', 'support-only']);
      expect(names(chain.applying('pre', 'git', 'support', 'git__status'))).toEqual(['everywhere', 'support-only']);
      expect(names(chain.applying('pre', 'git', 'other', 'git__status'))).toEqual(['everywhere']);
    });

    it('answers the same selection again without reading anything, and one shared empty list when none applies', () => {
      const inForce = new FixedInterceptors([anInterceptor('of-files', { scope: { source: 'files' } })]);
      const { chain } = chainOf(inForce);
      const first = chain.applying('pre', 'files', null, 'files__read');
      expect(chain.applying('pre', 'files', null, 'files__read')).toBe(first);
      const none = chain.applying('pre', 'git', null, 'git__log');
      expect(none).toEqual([]);
      expect(chain.applying('post', 'files', null, 'files__read')).toBe(none);
      expect(chain.applying('pre', 'git', 'support', 'git__status')).toBe(none);
      expect(inForce.reads).toBe(1);
    });

    it('selects again when the interceptors in force change (their version moves), and only then', () => {
      const inForce = new FixedInterceptors([anInterceptor('first')]);
      const { chain } = chainOf(inForce);
      expect(names(chain.applying('pre', 'files', null, 'files__read'))).toEqual(['first']);
      inForce.set([anInterceptor('second', { scope: { source: 'files' } }), anInterceptor('first', { enabled: false })]);
      expect(names(chain.applying('pre', 'files', null, 'files__read'))).toEqual(['second']);
      expect(names(chain.applying('pre', 'git', null, 'git__log'))).toEqual([]);
      expect(inForce.reads).toBe(2);
      inForce.set([]);
      expect(chain.applying('pre', 'files', null, 'files__read')).toEqual([]);
      expect(inForce.reads).toBe(3);
    });

    it('keeps answering right past the bound of its memo', () => {
      const { chain } = chainOf(new FixedInterceptors([anInterceptor('reads', { scope: { tools: ['*__read'] } })]));
      let applied = 0;
      for (let i = 0; i < 25_000; i++) applied += chain.applying('pre', `s${i}`, null, i % 2 === 0 ? `s${i}__read` : `s${i}__write`).length;
      expect(applied).toBe(12_500);
      expect(names(chain.applying('pre', 's0', null, 's0__read'))).toEqual(['reads']);
    });
  });

  describe('running them', () => {
    it('hands each modify to the next (pre: arguments), and records every run with its decision, changes and time', async () => {
      const specs = [anInterceptor('add-limit', { order: 1 }), anInterceptor('check', { order: 2 }), anInterceptor('tidy', { order: 3 })];
      const { chain, engine, metrics } = chainOf(new FixedInterceptors(specs));
      engine
        .answer('add-limit', (_s, _p, call) => ({ decision: 'modify', arguments: { ...call.arguments, limit: 10 }, changes: { paths: ['arguments.limit'] } }))
        .answer('check', { decision: 'allow', warning: 'path is outside the usual tree' })
        .answer('tidy', (_s, _p, call) => ({ decision: 'modify', arguments: { ...call.arguments, path: '/tmp/b' }, changes: { paths: ['arguments.path'] } }));
      const outcome = await chain.run('pre', specs, aCall());
      expect(outcome.arguments).toEqual({ path: '/tmp/b', limit: 10 });
      expect(outcome.denial).toBeUndefined();
      expect(engine.seen.map((seen) => seen.call.arguments)).toEqual([{ path: '/tmp/a' }, { path: '/tmp/a', limit: 10 }, { path: '/tmp/a', limit: 10 }]);
      expect(outcome.runs).toEqual([
        { name: 'add-limit', kind: 'webhook', phase: 'pre', decision: 'modify', changes: { paths: ['arguments.limit'] }, durationMs: expect.any(Number) },
        { name: 'check', kind: 'webhook', phase: 'pre', decision: 'allow', warning: 'path is outside the usual tree', durationMs: expect.any(Number) },
        { name: 'tidy', kind: 'webhook', phase: 'pre', decision: 'modify', changes: { paths: ['arguments.path'] }, durationMs: expect.any(Number) },
      ]);
      for (const run of outcome.runs) expect(Math.round(run.durationMs * 100) / 100).toBe(run.durationMs);
      expect(metrics.interceptorRuns.map(({ interceptor, phase, decision }) => [interceptor, phase, decision])).toEqual([
        ['add-limit', 'pre', 'modify'],
        ['check', 'pre', 'allow'],
        ['tidy', 'pre', 'modify'],
      ]);
    });

    it('post: replaces the result for the next and for the call, keeping what the engine left out of it', async () => {
      const specs = [anInterceptor('mask', { phase: 'post', order: 1 }), anInterceptor('count', { phase: 'post', order: 2 })];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine.answer('mask', { decision: 'modify', result: { content: [{ type: 'text', text: 'mail me at [email]' }] } as ExecutionResult, isError: true, changes: { counts: { email: 1 } } });
      const outcome = await chain.run('post', specs, aCall({ result: RESULT, isError: false }));
      expect(engine.seen[1]!.call.result!.content).toEqual([{ type: 'text', text: 'mail me at [email]' }]);
      expect([engine.seen[1]!.call.isError, outcome.isError]).toEqual([true, true]);
      expect(outcome.result).toEqual({ content: [{ type: 'text', text: 'mail me at [email]' }], truncated: false, originalBytes: 40 });
      expect(outcome.runs.map((run) => [run.decision, run.changes])).toEqual([
        ['modify', { counts: { email: 1 } }],
        ['allow', undefined],
      ]);
    });

    it('stops at a deny: the ones after it do not run, and the denial names the interceptor', async () => {
      const specs = [anInterceptor('paths', { order: 1 }), anInterceptor('after', { order: 2 })];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine.answer('paths', { decision: 'deny', message: '/etc is off limits', details: [{ path: 'arguments.path', message: 'is under /etc' }] });
      const outcome = await chain.run('pre', specs, aCall());
      expect(outcome.denial).toEqual({
        interceptor: 'paths',
        code: 'INTERCEPTOR_DENIED',
        message: 'Interceptor "paths" refused the call: /etc is off limits',
        details: [{ path: 'arguments.path', message: 'is under /etc' }],
        retryable: false,
      });
      expect(outcome.runs).toEqual([{ name: 'paths', kind: 'webhook', phase: 'pre', decision: 'deny', message: '/etc is off limits', durationMs: expect.any(Number) }]);
      expect(engine.seen.map((seen) => seen.name)).toEqual(['paths']);
    });

    it("keeps a denial's own code (ARGUMENT_LOCKED), and only codes of the stable form", async () => {
      const specs = [anInterceptor('locks')];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine.answer('locks', { decision: 'deny', code: 'ARGUMENT_LOCKED', message: 'leave "path" out' });
      expect((await chain.run('pre', specs, aCall())).denial?.code).toBe('ARGUMENT_LOCKED');
      engine.answer('locks', { decision: 'deny', code: 'not a code <b>', message: 'no' } as InterceptorVerdict);
      expect((await chain.run('pre', specs, aCall())).denial?.code).toBe('INTERCEPTOR_DENIED');
    });

    it('fails a run that does not end within its timeoutMs: the signal it was given aborts, and onError deny refuses the call', async () => {
      const specs = [anInterceptor('slow', { timeoutMs: 30, onError: 'deny' }), anInterceptor('after', { order: 200 })];
      const { chain, engine, metrics } = chainOf(new FixedInterceptors(specs));
      engine.answer('slow', () => new Promise<InterceptorVerdict>(() => undefined));
      const outcome = await chain.run('pre', specs, aCall());
      expect(engine.seen[0]!.signal.aborted).toBe(true);
      expect(outcome.runs).toEqual([{ name: 'slow', kind: 'webhook', phase: 'pre', decision: 'error', onError: 'deny', failure: 'timed out after 30 ms', durationMs: expect.any(Number) }]);
      expect(outcome.denial).toEqual({ interceptor: 'slow', code: FAILED_CODE, message: 'Interceptor "slow" failed (timed out after 30 ms), so the call was refused.', retryable: true });
      expect(engine.seen.map((seen) => seen.name)).toEqual(['slow']);
      expect(metrics.interceptorRuns[0]).toMatchObject({ interceptor: 'slow', decision: 'error' });
    });

    it('goes on past a failure with onError allow, as if it allowed, and records it as an error', async () => {
      const specs = [anInterceptor('slow', { timeoutMs: 20, onError: 'allow', order: 1 }), anInterceptor('broken', { onError: 'allow', order: 2 }), anInterceptor('after', { order: 3 })];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine.answer('slow', () => new Promise<InterceptorVerdict>(() => undefined)).answer('broken', () => {
        throw new Error('the rules file is missing');
      });
      const outcome = await chain.run('pre', specs, aCall());
      expect(outcome.denial).toBeUndefined();
      expect(outcome.arguments).toEqual({ path: '/tmp/a' });
      expect(outcome.runs.map(({ name, decision, onError, failure }) => ({ name, decision, onError, failure }))).toEqual([
        { name: 'slow', decision: 'error', onError: 'allow', failure: 'timed out after 20 ms' },
        { name: 'broken', decision: 'error', onError: 'allow', failure: 'the rules file is missing' },
        { name: 'after', decision: 'allow', onError: undefined, failure: undefined },
      ]);
    });

    it('fails a run whose engine rejects, answers no verdict, or whose kind no engine runs', async () => {
      const specs = [
        anInterceptor('rejects', { onError: 'allow', order: 1 }),
        anInterceptor('mumbles', { onError: 'allow', order: 2 }),
        anInterceptor('capped', { kind: 'cap', settings: { maxBytes: 10 }, onError: 'allow', order: 3 }),
        anInterceptor('capped-strict', { kind: 'cap', settings: { maxBytes: 10 }, onError: 'deny', order: 4 }),
      ];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine.answer('rejects', () => Promise.reject(new Error('connection refused'))).answer('mumbles', () => ({ decision: 'perhaps' }) as unknown as InterceptorVerdict);
      const outcome = await chain.run('pre', specs, aCall());
      expect(outcome.runs.map((run) => [run.name, run.decision, run.failure])).toEqual([
        ['rejects', 'error', 'connection refused'],
        ['mumbles', 'error', 'it answered no known decision'],
        ['capped', 'error', 'no engine runs interceptors of kind "cap"'],
        ['capped-strict', 'error', 'no engine runs interceptors of kind "cap"'],
      ]);
      expect(outcome.denial).toMatchObject({ interceptor: 'capped-strict', code: FAILED_CODE, retryable: false });
    });

    it('checks arguments an interceptor replaced: problems make the run a failure, its change dropped (allow) or the call refused with them listed (deny)', async () => {
      const problems = [{ path: 'arguments.limit', message: 'must be a number' }];
      const checkArguments = (args: Record<string, unknown>) => (typeof args.limit === 'number' || args.limit === undefined ? [] : problems);
      const lenient = [anInterceptor('bad-limit', { onError: 'allow', order: 1 }), anInterceptor('good-path', { order: 2 })];
      const { chain, engine } = chainOf(new FixedInterceptors(lenient));
      engine
        .answer('bad-limit', { decision: 'modify', arguments: { path: '/tmp/a', limit: 'ten' }, changes: { paths: ['arguments.limit'] } })
        .answer('good-path', (_s, _p, call) => ({ decision: 'modify', arguments: { ...call.arguments, path: '/tmp/c' }, changes: {} }))
        .answer('bad-strict', { decision: 'modify', arguments: { limit: 'ten' }, changes: {} });
      const allowed = await chain.run('pre', lenient, aCall(), { checkArguments });
      expect(allowed.arguments).toEqual({ path: '/tmp/c' });
      expect(allowed.runs[0]).toMatchObject({ decision: 'error', onError: 'allow', failure: "the arguments it answered do not match the tool's input schema: arguments.limit must be a number" });
      const denied = await chain.run('pre', [anInterceptor('bad-strict')], aCall(), { checkArguments });
      expect(denied.denial).toMatchObject({ interceptor: 'bad-strict', code: FAILED_CODE, details: problems });
      expect(denied.arguments).toEqual({ path: '/tmp/a' });
    });

    it('ends a run when the caller leaves', async () => {
      const specs = [anInterceptor('slow', { timeoutMs: 60_000 })];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine.answer('slow', () => new Promise<InterceptorVerdict>(() => undefined));
      const departure = new CallerDeparture();
      const running = chain.run('pre', specs, aCall(), { signal: departure });
      await new Promise((resolve) => setImmediate(resolve));
      departure.abort();
      const outcome = await running;
      expect(outcome.runs[0]).toMatchObject({ decision: 'error', failure: 'the caller went away while it ran' });
      expect(engine.seen[0]!.signal.aborted).toBe(true);
    });

    it('gives a later run the signal of one that answered at once, unless something still listens to it or it was aborted', async () => {
      const specs = [anInterceptor('plain'), anInterceptor('listens'), anInterceptor('slow', { timeoutMs: 5, onError: 'allow' })];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      engine
        .answer('listens', (_s, _p, _c, signal) => {
          signal.addEventListener('abort', () => undefined);
          return { decision: 'allow' };
        })
        .answer('slow', () => new Promise<InterceptorVerdict>(() => undefined));
      const signalOf = async (spec: (typeof specs)[number]) => {
        await chain.run('pre', [spec], aCall());
        return engine.seen.at(-1)!.signal;
      };
      const plain = await signalOf(specs[0]!);
      expect(await signalOf(specs[0]!)).toBe(plain);
      const listened = await signalOf(specs[1]!);
      expect(listened).toBe(plain);
      expect(await signalOf(specs[0]!)).not.toBe(listened);
      const aborted = await signalOf(specs[2]!);
      expect(aborted.aborted).toBe(true);
      expect(await signalOf(specs[0]!)).not.toBe(aborted);
    });

    it('takes nothing from a verdict that comes after the timeout', async () => {
      const specs = [anInterceptor('late', { timeoutMs: 10, onError: 'allow' })];
      const { chain, engine } = chainOf(new FixedInterceptors(specs));
      let answerLate!: (verdict: InterceptorVerdict) => void;
      engine.answer('late', () => new Promise<InterceptorVerdict>((resolve) => (answerLate = resolve)));
      const outcome = await chain.run('pre', specs, aCall());
      answerLate({ decision: 'modify', arguments: { path: '/etc/passwd' }, changes: {} });
      await new Promise((resolve) => setImmediate(resolve));
      expect(outcome.arguments).toEqual({ path: '/tmp/a' });
      expect(outcome.runs[0]!.decision).toBe('error');
    });
  });

  describe('holds', () => {
    const hold: InterceptorVerdict = { decision: 'hold', hold: { approvers: { roles: ['admin'] }, timeoutMs: 60_000 } };
    const approvalSpec = (name: string, order = 100) => anInterceptor(name, { kind: 'approval', order, settings: { approvers: { roles: ['admin'] } } });

    it('ends the pre chain at an approval that holds, with the hash of the arguments it saw', async () => {
      const approvals = new ScriptedEngine('approval').answer('four-eyes', hold);
      const webhooks = new ScriptedEngine('webhook').answer('fill', { decision: 'modify', arguments: { path: '/tmp/b' }, changes: {} });
      const inForce = new FixedInterceptors([anInterceptor('fill', { order: 1 }), approvalSpec('four-eyes', 2), anInterceptor('after', { order: 3 })]);
      const metrics = new RecordingWorkMetrics();
      const chain = new InterceptorChain(inForce, [approvals, webhooks], undefined, metrics);
      const outcome = await chain.run('pre', chain.applying('pre', 'files', null, 'files__read'), aCall());
      expect(outcome.hold).toEqual({ interceptor: 'four-eyes', request: hold.hold, argumentsHash: argumentsHashOf({ path: '/tmp/b' }) });
      expect(outcome.denial).toBeUndefined();
      expect(outcome.runs.map((run) => [run.name, run.decision])).toEqual([
        ['fill', 'modify'],
        ['four-eyes', 'hold'],
      ]);
      expect(webhooks.seen.map((seen) => seen.name)).toEqual(['fill']);
    });

    it('takes a hold from no other kind: a webhook answering one fails', async () => {
      const { chain } = chainOf(new FixedInterceptors([anInterceptor('remote')]), new ScriptedEngine('webhook').answer('remote', hold));
      const outcome = await chain.run('pre', chain.applying('pre', 'files', null, 'files__read'), aCall());
      expect(outcome.hold).toBeUndefined();
      expect(outcome.denial).toMatchObject({ code: FAILED_CODE });
    });

    it("puts the decision an approval reports on its run, and takes it from no other kind", async () => {
      const approval = { id: 'a-1', decision: 'approved' as const, decidedBy: { id: 'k2', name: 'ops' }, comment: 'ok', requestedAt: 'r', decidedAt: 'd' };
      const approvals = new ScriptedEngine('approval').answer('four-eyes', { decision: 'allow', approval });
      const webhooks = new ScriptedEngine('webhook').answer('remote', { decision: 'allow', approval } as InterceptorVerdict);
      const chain = new InterceptorChain(new FixedInterceptors([approvalSpec('four-eyes'), anInterceptor('remote', { order: 200 })]), [approvals, webhooks]);
      const outcome = await chain.run('pre', chain.applying('pre', 'files', null, 'files__read'), aCall());
      expect(outcome.runs.map((run) => run.approval)).toEqual([approval, undefined]);
    });
  });
});

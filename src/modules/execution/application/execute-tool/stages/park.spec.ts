import { InterceptorChain, argumentsHashOf } from '../../../../interceptors/application/interceptor-chain.js';
import { FixedInterceptors } from '../../../../interceptors/testing/fixed-interceptors.js';
import { anInterceptor } from '../../../../interceptors/testing/interceptor-specs.js';
import { ScriptedEngine } from '../../../../interceptors/testing/scripted-engine.js';
import type { InterceptorSpec } from '../../../../interceptors/domain/interceptor.js';
import type { InterceptorVerdict } from '../../../../interceptors/domain/intercepted-call.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute, aTarget } from '../../../testing/routes.js';
import { HeldCalls, type HeldCall } from './call-stage.js';

const DELETE = 'crm__delete_customer';
const route = aRoute(DELETE, { tool: { description: 'Deletes a customer.', annotations: { destructiveHint: true }, inputSchema: { type: 'object', properties: { id: { type: 'string' } } } } });
const HOLD: InterceptorVerdict = { decision: 'hold', hold: { approvers: { roles: ['admin'] }, timeoutMs: 60_000 } };

class RecordingHeldCalls extends HeldCalls {
  readonly held: HeldCall[] = [];
  failure?: Error;
  hold(call: HeldCall): Promise<{ approvalId: string; expiresAt: Date }> {
    if (this.failure) return Promise.reject(this.failure);
    this.held.push(call);
    return Promise.resolve({ approvalId: '00000000-0000-4000-a000-000000000001', expiresAt: new Date(call.requestedAt.getTime() + 60_000) });
  }
  withdraw(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

function setUp(engine: ScriptedEngine, specs: InterceptorSpec[] = [anInterceptor('approve-deletes', { kind: 'approval' as InterceptorSpec['kind'] } as Partial<InterceptorSpec>)]) {
  const held = new RecordingHeldCalls();
  const chain = new InterceptorChain(new FixedInterceptors(specs), [engine]);
  const harness = new ExecuteToolHarness({ interceptorChain: chain, heldCalls: held }).withTool(route);
  return { harness, held };
}

describe('ParkStage (a call held for approval)', () => {
  it('stores the task pending_approval and the approval, sends nothing and records nothing', async () => {
    const engine = new ScriptedEngine('approval' as InterceptorSpec['kind']).answer('approve-deletes', HOLD);
    const { harness, held } = setUp(engine);
    const executed = await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-1' } }, { caller: { principalId: 'key-1', principalName: 'agent' } });
    expect(executed.waiting?.task).toMatchObject({ id: executed.record.id, status: 'pending_approval', principalId: 'key-1', approvalId: '00000000-0000-4000-a000-000000000001' });
    expect(executed.waiting?.expiresAt).toBeInstanceOf(Date);
    expect(executed.record.error?.code).toBe('APPROVAL_PENDING');
    expect(harness.recorder.records).toHaveLength(0);
    expect(harness.recorder.started).toHaveLength(0);
    expect(harness.timeline).not.toContain('invoked');
    expect(held.held).toHaveLength(1);
    expect(held.held[0]).toMatchObject({ interceptor: 'approve-deletes', argumentsHash: argumentsHashOf({ id: 'c-1' }), qualifiedName: DELETE, sourceName: 'crm', tool: { description: 'Deletes a customer.', annotations: { destructiveHint: true } } });
    expect(held.held[0]!.input.arguments).toEqual({ id: 'c-1' });
    expect((await harness.tasks.get(executed.record.id))?.status).toBe('pending_approval');
  });

  it("keeps the caller's token with a held call to a token-exchange source, apart from its input, and with no other", async () => {
    const engine = new ScriptedEngine('approval' as InterceptorSpec['kind']).answer('approve-deletes', HOLD);
    const { harness, held } = setUp(engine);
    await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-1' }, callerToken: 'oidc-token-1' });
    harness.targets.add({ ...aTarget(route), auth: { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'https://idp.example/token', audience: 'crm', clientId: 'toolplane' } } });
    harness.catalogChanged();
    await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-2' }, callerToken: 'oidc-token-2' });
    await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-3' } });
    expect(held.held.map((call) => call.callerToken)).toEqual([undefined, 'oidc-token-2', undefined]);
    expect(held.held.map((call) => call.input.callerToken)).toEqual(['oidc-token-1', 'oidc-token-2', undefined]);
  });

  it('refuses APPROVAL_UNAVAILABLE (retryable, recorded) when the approval cannot be stored', async () => {
    const engine = new ScriptedEngine('approval' as InterceptorSpec['kind']).answer('approve-deletes', HOLD);
    const { harness, held } = setUp(engine);
    held.failure = new Error('database down');
    const { record, waiting } = await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-1' } });
    expect(waiting).toBeUndefined();
    expect([record.status, record.error?.code, record.error?.retryable]).toEqual(['rejected', 'APPROVAL_UNAVAILABLE', true]);
    expect(harness.recorder.records).toHaveLength(1);
    expect(harness.timeline).not.toContain('invoked');
  });

  it('lets only an approval interceptor hold a call: a hold from another kind is that interceptor failing', async () => {
    const engine = new ScriptedEngine('webhook').answer('hook', HOLD);
    const { harness, held } = setUp(engine, [anInterceptor('hook')]);
    const { record, waiting } = await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-1' } });
    expect(waiting).toBeUndefined();
    expect(held.held).toHaveLength(0);
    expect([record.status, record.error?.code]).toEqual(['rejected', 'INTERCEPTOR_FAILED']);
    expect(record.interceptors?.[0]).toMatchObject({ name: 'hook', decision: 'error', failure: 'only an approval interceptor may hold a call' });
  });

  it('records a resumed call as the approval engine decides, with the decision on its run', async () => {
    const approval = { id: 'a-1', decision: 'denied', decidedBy: { id: 'key-2', name: 'boss' }, comment: 'no', requestedAt: '2026-01-01T00:00:00.000Z', decidedAt: '2026-01-01T00:01:00.000Z' } as const;
    const engine = new ScriptedEngine('approval' as InterceptorSpec['kind']).answer('approve-deletes', { decision: 'deny', message: 'denied by boss', code: 'APPROVAL_DENIED', approval });
    const { harness } = setUp(engine);
    const { record } = await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-1' } });
    expect([record.status, record.error?.code]).toEqual(['rejected', 'APPROVAL_DENIED']);
    expect(record.interceptors?.[0]).toMatchObject({ decision: 'deny', approval });
    expect(harness.timeline).not.toContain('invoked');
  });

  it('records a call withdrawn before its decision as cancelled', async () => {
    const engine = new ScriptedEngine('approval' as InterceptorSpec['kind']).answer('approve-deletes', { decision: 'deny', message: 'the caller cancelled it', code: 'CALL_CANCELLED' });
    const { harness } = setUp(engine);
    const { record } = await harness.call({ qualifiedName: DELETE, arguments: { id: 'c-1' } });
    expect([record.status, record.error?.code]).toEqual(['cancelled', 'CALL_CANCELLED']);
  });
});

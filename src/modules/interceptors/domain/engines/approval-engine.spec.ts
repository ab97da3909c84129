import type { ApprovalGrant } from '../intercepted-call.js';
import type { ApprovalSettings } from '../interceptor.js';
import { argumentsHashOf } from '../arguments-hash.js';
import { anInterceptedCall, anInterceptor } from '../../testing/engine-fixtures.js';
import { ApprovalEngine } from './approval-engine.js';

describe('ApprovalEngine', () => {
  const engine = new ApprovalEngine();
  const approval = (settings: Partial<ApprovalSettings> = {}) => ({ ...anInterceptor('approval', { approvers: { roles: ['admin'] }, ...settings }, 'four-eyes'), timeoutMs: 60_000 });
  const grant = (changes: Partial<ApprovalGrant> = {}): ApprovalGrant => ({
    id: 'approval-1',
    interceptor: 'four-eyes',
    decision: 'approved',
    argumentsHash: argumentsHashOf({ message: 'hi' }),
    decidedBy: { id: 'k2', name: 'ops' },
    comment: 'fine',
    requestedAt: '2026-01-01T00:00:00.000Z',
    decidedAt: '2026-01-01T00:01:00.000Z',
    ...changes,
  });

  it('holds a call with no decision yet, asking its approvers for its timeout, with its notify', () => {
    const spec = approval({ approvers: { roles: ['reviewer'], principals: ['ops'] }, notify: { url: 'https://hooks.example.com/x', signingSecret: 'HOOK' } });
    expect(engine.run({ ...spec, description: 'Deletes need a second pair of eyes.' }, 'pre', anInterceptedCall({ arguments: { message: 'hi' } }))).toEqual({
      decision: 'hold',
      hold: {
        approvers: { roles: ['reviewer'], principals: ['ops'] },
        timeoutMs: 60_000,
        message: 'Deletes need a second pair of eyes.',
        notify: { url: 'https://hooks.example.com/x', signingSecret: 'HOOK' },
      },
    });
  });

  it('holds only calls its `when` annotations describe, an undeclared hint counting as its MCP default', () => {
    const spec = approval({ when: { annotations: { destructiveHint: true } } });
    expect(engine.run(spec, 'pre', anInterceptedCall({ tool: { annotations: { destructiveHint: true } } })).decision).toBe('hold');
    expect(engine.run(spec, 'pre', anInterceptedCall({ tool: { annotations: null } })).decision).toBe('hold');
    expect(engine.run(spec, 'pre', anInterceptedCall({ tool: { annotations: { destructiveHint: false } } })).decision).toBe('allow');
    const readOnly = approval({ when: { annotations: { readOnlyHint: false } } });
    expect(engine.run(readOnly, 'pre', anInterceptedCall({ tool: { annotations: { readOnlyHint: true } } })).decision).toBe('allow');
  });

  it('holds when any argument condition meets the call, and only calls of the principals listed', () => {
    const spec = approval({ when: { arguments: [{ argument: 'amount', range: { max: 1000 } }, { argument: 'path', pathUnder: '/prod' }], principals: ['ci'] } });
    expect(engine.run(spec, 'pre', anInterceptedCall({ arguments: { amount: 5000 } })).decision).toBe('hold');
    expect(engine.run(spec, 'pre', anInterceptedCall({ arguments: { amount: 10, path: '/prod/db' } })).decision).toBe('hold');
    expect(engine.run(spec, 'pre', anInterceptedCall({ arguments: { amount: 10, path: '/dev' } })).decision).toBe('allow');
    expect(engine.run(spec, 'pre', anInterceptedCall({ arguments: {} })).decision).toBe('allow');
    expect(engine.run(spec, 'pre', anInterceptedCall({ arguments: { amount: 5000 }, principal: { id: 'k9', name: 'other' } })).decision).toBe('allow');
    expect(engine.run(spec, 'pre', anInterceptedCall({ arguments: { amount: 5000 }, principal: { id: 'ci', name: 'renamed' } })).decision).toBe('hold');
  });

  it('allows a resumed call approved for the very arguments it has', () => {
    expect(engine.run(approval(), 'pre', anInterceptedCall({ arguments: { message: 'hi' }, approval: grant() }))).toMatchObject({ decision: 'allow' });
  });

  it('refuses a resumed call denied, expired, or whose arguments are not those the approver saw', () => {
    const call = (changes: Partial<ApprovalGrant>, args: Record<string, unknown> = { message: 'hi' }) => engine.run(approval(), 'pre', anInterceptedCall({ arguments: args, approval: grant(changes) }));
    expect(call({ decision: 'denied' })).toMatchObject({ decision: 'deny', code: 'APPROVAL_DENIED', message: 'the call was denied by ops: fine' });
    expect(call({ decision: 'expired', decidedBy: undefined, comment: undefined })).toMatchObject({ decision: 'deny', code: 'APPROVAL_TIMED_OUT' });
    expect(call({}, { message: 'hi!' })).toMatchObject({ decision: 'deny', code: 'APPROVAL_MISMATCH' });
    expect(call({}, { message: 'hi', extra: 1 })).toMatchObject({ decision: 'deny', code: 'APPROVAL_MISMATCH' });
    expect(call({ decision: 'withdrawn' })).toMatchObject({ decision: 'deny', code: 'CALL_CANCELLED' });
  });

  it('reports the decision it judged by, for the record', () => {
    expect(engine.run(approval(), 'pre', anInterceptedCall({ arguments: { message: 'hi' }, approval: grant() }))).toEqual({
      decision: 'allow',
      approval: { id: 'approval-1', decision: 'approved', decidedBy: { id: 'k2', name: 'ops' }, comment: 'fine', requestedAt: '2026-01-01T00:00:00.000Z', decidedAt: '2026-01-01T00:01:00.000Z' },
    });
  });

  it("refuses a call resumed after another interceptor's decision that it would hold too, and lets one it would not hold go on", () => {
    expect(engine.run(approval(), 'pre', anInterceptedCall({ arguments: { message: 'hi' }, approval: grant({ interceptor: 'other' }) }))).toMatchObject({ decision: 'deny', code: 'APPROVAL_CONFLICT' });
    const narrow = approval({ when: { principals: ['someone-else'] } });
    expect(engine.run(narrow, 'pre', anInterceptedCall({ arguments: { message: 'hi' }, approval: grant({ interceptor: 'other' }) }))).toEqual({ decision: 'allow' });
  });
});

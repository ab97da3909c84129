import type { ModuleRef } from '@nestjs/core';
import type { CallTasks } from '../../execution/application/call-tasks.js';
import type { ExecuteToolCommand } from '../../execution/application/execute-tool/execute-tool.command.js';
import type { Approval } from '../domain/approval.js';
import { aPendingApproval, InMemoryApprovalRepository } from '../testing/in-memory-approval-repository.js';
import { ResumeHeldCall } from './resume-held-call.js';

describe('ResumeHeldCall', () => {
  const setup = async (callerToken?: string) => {
    const approvals = new InMemoryApprovalRepository();
    const pending = aPendingApproval();
    await approvals.insert(pending, { input: { qualifiedName: 'ev__echo', arguments: { message: 'hi' }, executionId: pending.executionId }, caller: pending.caller, channel: 'rest' }, callerToken);
    const resumed: ExecuteToolCommand[] = [];
    let failing = false;
    const tasks = {
      resume: (command: ExecuteToolCommand) => (failing ? Promise.reject(new Error('database down')) : (resumed.push(command), Promise.resolve(true))),
    } as unknown as CallTasks;
    const modules = { get: () => tasks } as unknown as ModuleRef;
    const decided = (status: Approval['status']): Approval => ({ ...pending, status, decidedAt: new Date('2026-01-01T00:00:30.000Z'), ...(status === 'approved' ? { decidedBy: { id: 'ops-1', name: 'ops' } } : {}) });
    return { approvals, resumed, resumer: new ResumeHeldCall(approvals, modules), decided, id: pending.id, fail: () => (failing = true) };
  };

  it("runs an approved call again with its exact input, the decision, and the caller's token kept for it, then erases the token", async () => {
    const f = await setup('oidc-token');
    await f.resumer.resume(f.decided('approved'));
    expect(f.resumed).toHaveLength(1);
    expect(f.resumed[0]!.input).toMatchObject({ qualifiedName: 'ev__echo', arguments: { message: 'hi' }, callerToken: 'oidc-token', approval: { id: f.id, decision: 'approved', decidedBy: { id: 'ops-1', name: 'ops' } } });
    expect(await f.approvals.callerToken(f.id)).toBeUndefined();
  });

  it('gives a denied, expired or withdrawn call no token, and erases it all the same', async () => {
    for (const status of ['denied', 'expired', 'withdrawn'] as const) {
      const f = await setup('oidc-token');
      await f.resumer.resume(f.decided(status));
      expect([status, f.resumed[0]!.input.callerToken, f.resumed[0]!.input.approval?.decision]).toEqual([status, undefined, status]);
      expect(await f.approvals.callerToken(f.id)).toBeUndefined();
    }
  });

  it('keeps the token for the recovery sweep when the call could not be resumed', async () => {
    const f = await setup('oidc-token');
    f.fail();
    await expect(f.resumer.resume(f.decided('approved'))).rejects.toThrow('database down');
    expect(await f.approvals.callerToken(f.id)).toBe('oidc-token');
  });
});

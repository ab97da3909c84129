import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { RecordingWorkMetrics } from '../../../../shared/testing/recording-work-metrics.js';
import type { Approval } from '../../domain/approval.js';
import { aPendingApproval, InMemoryApprovalRepository } from '../../testing/in-memory-approval-repository.js';
import type { ResumeHeldCall } from '../resume-held-call.js';
import { DecideApprovalCommand } from './decide-approval.command.js';
import { DecideApprovalHandler } from './decide-approval.handler.js';

describe('DecideApprovalHandler', () => {
  const ops = { id: 'ops-1', name: 'ops', roles: ['reviewer'] };
  const setup = async (approval: Approval = aPendingApproval()) => {
    const approvals = new InMemoryApprovalRepository();
    await approvals.insert(approval, { input: { qualifiedName: approval.qualifiedName, arguments: approval.arguments }, caller: approval.caller, channel: approval.channel });
    const uow = new DirectUnitOfWork();
    const audit = new RecordingAuditLog(uow);
    const resumed: Approval[] = [];
    const resumer = { inBackground: (decided: Approval) => resumed.push(decided) } as unknown as ResumeHeldCall;
    const metrics = new RecordingWorkMetrics();
    const handler = new DecideApprovalHandler(approvals, audit, uow, resumer, metrics);
    return { approvals, audit, resumed, metrics, handler, id: approval.id };
  };
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { code?: string }) => error.code);

  it('decides a pending approval by an approver, records it with its audit event, counts it and resumes the call with it', async () => {
    const f = await setup();
    f.approvals.now = new Date('2026-01-01T00:00:30.000Z');
    const view = await f.handler.execute(new DecideApprovalCommand(f.id, 'approved', 'Ticket OPS-42.', ops));
    expect(view).toMatchObject({ status: 'approved', decidedBy: { id: 'ops-1', name: 'ops' }, comment: 'Ticket OPS-42.', decidedAt: '2026-01-01T00:00:30.000Z' });
    expect(f.audit.events).toEqual([
      expect.objectContaining({ actor: 'ops-1', action: 'approval.approved', targetType: 'approval', targetId: f.id, details: expect.objectContaining({ approver: 'ops', comment: 'Ticket OPS-42.' }) }),
    ]);
    expect(f.metrics.approvals).toEqual([{ decision: 'approved', seconds: 30 }]);
    expect(f.resumed.map((approval) => approval.status)).toEqual(['approved']);
  });

  it('refuses the call’s own caller even when it is an approver, and anyone who is none', async () => {
    const f = await setup(aPendingApproval({ approvers: { roles: ['admin'], principals: ['ops', 'caller'] } }));
    expect(await failure(f.handler.execute(new DecideApprovalCommand(f.id, 'approved', null, { id: 'caller-1', name: 'caller', roles: ['admin'] })))).toBe('SELF_APPROVAL_FORBIDDEN');
    expect(await failure(f.handler.execute(new DecideApprovalCommand(f.id, 'approved', null, { id: 'qa-1', name: 'qa', roles: ['reviewer'] })))).toBe('APPROVAL_NOT_ALLOWED');
    expect(await failure(f.handler.execute(new DecideApprovalCommand('not-a-uuid', 'approved', null, ops)))).toBe('APPROVAL_NOT_FOUND');
    expect([(await f.approvals.find(f.id))!.status, f.audit.events, f.resumed]).toEqual(['pending', [], []]);
  });

  it('answers APPROVAL_DECIDED to a second decision, and to one past the expiry, resuming nothing more', async () => {
    const f = await setup();
    await f.handler.execute(new DecideApprovalCommand(f.id, 'denied', 'No.', ops));
    expect(await failure(f.handler.execute(new DecideApprovalCommand(f.id, 'approved', null, { id: 'boss', name: 'boss', roles: ['admin'] })))).toBe('APPROVAL_DECIDED');
    expect(f.resumed.map((approval) => approval.status)).toEqual(['denied']);

    const late = await setup();
    late.approvals.now = new Date('2026-01-01T02:00:00.000Z');
    expect(await failure(late.handler.execute(new DecideApprovalCommand(late.id, 'approved', null, ops)))).toBe('APPROVAL_DECIDED');
    expect([late.audit.events, late.resumed]).toEqual([[], []]);
  });

  it('lets one of two deciders racing win', async () => {
    const f = await setup();
    const answers = await Promise.allSettled([
      f.handler.execute(new DecideApprovalCommand(f.id, 'approved', null, ops)),
      f.handler.execute(new DecideApprovalCommand(f.id, 'denied', null, { id: 'boss', name: 'boss', roles: ['admin'] })),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(f.resumed).toHaveLength(1);
    expect(f.audit.events).toHaveLength(1);
  });
});

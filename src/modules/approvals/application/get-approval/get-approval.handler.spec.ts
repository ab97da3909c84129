import type { QueryBus } from '@nestjs/cqrs';
import type { ListExecutionsQuery } from '../../../executions/application/list-executions/list-executions.query.js';
import { anExecution } from '../../../executions/testing/builders.js';
import { aPendingApproval, InMemoryApprovalRepository } from '../../testing/in-memory-approval-repository.js';
import { GetApprovalHandler, RECENT_CALLS } from './get-approval.handler.js';
import { GetApprovalQuery } from './get-approval.query.js';

const HELD = { input: {}, caller: { principalId: 'caller-1', principalName: 'caller' }, channel: 'rest' } as never;

function setUp() {
  const approvals = new InMemoryApprovalRepository();
  const asked: ListExecutionsQuery[] = [];
  const queries = { execute: (query: ListExecutionsQuery) => (asked.push(query), Promise.resolve({ items: [anExecution()], nextCursor: null })) } as unknown as QueryBus;
  return { approvals, asked, handler: new GetApprovalHandler(approvals, queries) };
}

describe('GetApprovalHandler', () => {
  it("shows an approver the held call and its caller's latest executions", async () => {
    const { approvals, asked, handler } = setUp();
    const approval = aPendingApproval();
    await approvals.insert(approval, HELD);
    const shown = await handler.execute(new GetApprovalQuery(approval.id, { id: 'key-ops', name: 'ops', roles: ['reviewer'], admin: false }));
    expect(shown).toMatchObject({ id: approval.id, status: 'pending', callerRecentExecutions: [expect.objectContaining({ status: 'succeeded' })] });
    expect(asked[0]).toMatchObject({ filter: { caller: 'caller-1' }, limit: RECENT_CALLS });
  });

  it('answers APPROVAL_NOT_FOUND to a key that may not decide it, to its own caller, and for an unknown or malformed id; an admin sees it', async () => {
    const { approvals, handler } = setUp();
    const approval = aPendingApproval();
    await approvals.insert(approval, HELD);
    const refused = [
      new GetApprovalQuery(approval.id, { id: 'key-qa', name: 'qa', roles: ['reviewer'], admin: false }),
      new GetApprovalQuery(approval.id, { id: 'caller-1', name: 'ops', roles: ['admin'], admin: false }),
      new GetApprovalQuery('00000000-0000-4000-8000-0000000000ff', { id: 'key-ops', name: 'ops', roles: [], admin: true }),
      new GetApprovalQuery('not-a-uuid', { id: 'key-ops', name: 'ops', roles: [], admin: true }),
    ];
    for (const query of refused) await expect(handler.execute(query)).rejects.toMatchObject({ code: 'APPROVAL_NOT_FOUND' });
    await expect(handler.execute(new GetApprovalQuery(approval.id, { id: 'key-boss', name: 'boss', roles: ['admin'], admin: true }))).resolves.toMatchObject({ id: approval.id });
  });
});

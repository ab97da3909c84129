import { encodeCursor } from '../../../../shared/http/cursor.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import type { Approval } from '../../domain/approval.js';
import { aPendingApproval, InMemoryApprovalRepository, InMemoryApprovalViews } from '../../testing/in-memory-approval-repository.js';
import { ListApprovalsHandler } from './list-approvals.handler.js';
import { ListApprovalsQuery } from './list-approvals.query.js';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

describe('ListApprovalsHandler', () => {
  const setup = async (approvals: Approval[]) => {
    const repository = new InMemoryApprovalRepository();
    for (const approval of approvals) await repository.insert(approval, { input: { qualifiedName: approval.qualifiedName, arguments: approval.arguments }, caller: approval.caller, channel: approval.channel });
    const handler = new ListApprovalsHandler(new InMemoryApprovalViews(repository));
    return (filter: ConstructorParameters<typeof ListApprovalsQuery>[0], limit: number, cursor?: string) => handler.execute(new ListApprovalsQuery(filter, cursor, limit));
  };

  it('pages newest first, ties by id, and the last page has no cursor', async () => {
    const list = await setup([aPendingApproval({ id: id(1), createdAt: at(1) }), aPendingApproval({ id: id(2), createdAt: at(3) }), aPendingApproval({ id: id(3), createdAt: at(3) }), aPendingApproval({ id: id(4), createdAt: at(2) })]);
    const first = await list({}, 2);
    expect(first.items.map((item) => item.id)).toEqual([id(3), id(2)]);
    const second = await list({}, 2, first.nextCursor!);
    expect([second.items.map((item) => item.id), second.nextCursor]).toEqual([[id(4), id(1)], null]);
  });

  it('shows each approval as the API does, its times as ISO strings and never its held input', async () => {
    const list = await setup([aPendingApproval({ id: id(1), message: 'Writes need a second pair of eyes.' })]);
    const [view] = (await list({}, 10)).items;
    expect(view).toEqual({
      id: id(1),
      executionId: '01900000-0000-7000-8000-000000000001',
      status: 'pending',
      interceptor: 'four-eyes',
      message: 'Writes need a second pair of eyes.',
      tool: { qualifiedName: 'ev__echo', source: 'ev', description: null, annotations: null },
      group: null,
      caller: { principalId: 'caller-1', principalName: 'caller' },
      channel: 'rest',
      arguments: { message: 'hi' },
      argumentsHash: 'hash',
      approvers: { roles: ['admin'], principals: ['ops'] },
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T01:00:00.000Z',
      decidedAt: null,
      decidedBy: null,
      comment: null,
    });
    expect(JSON.stringify(view)).not.toContain('input');
  });

  it('lists by status, and to a decider only what it may decide: never its own call', async () => {
    const list = await setup([
      aPendingApproval({ id: id(1), createdAt: at(1) }),
      aPendingApproval({ id: id(2), createdAt: at(2), status: 'denied' }),
      aPendingApproval({ id: id(3), createdAt: at(3), caller: { principalId: 'ops-1', principalName: 'ops' } }),
      aPendingApproval({ id: id(4), createdAt: at(4), approvers: { roles: ['reviewer'] } }),
    ]);
    expect((await list({ status: 'pending' }, 10)).items.map((item) => item.id)).toEqual([id(4), id(3), id(1)]);
    expect((await list({ decidableBy: { id: 'ops-1', name: 'ops', roles: ['agent'] } }, 10)).items.map((item) => item.id)).toEqual([id(2), id(1)]);
    expect((await list({ status: 'pending', decidableBy: { id: 'qa-1', name: 'qa', roles: ['reviewer'] } }, 10)).items.map((item) => item.id)).toEqual([id(4)]);
  });

  it('refuses a cursor it did not issue with INVALID_CURSOR', async () => {
    const list = await setup([aPendingApproval()]);
    for (const cursor of ['not a cursor!', encodeCursor({ at: '2026-01-01T00:00:00.000Z' } as Record<string, string>)]) {
      expect(await rejection(list({}, 10, cursor))).toMatchObject({ code: 'INVALID_CURSOR', details: [{ path: 'cursor', message: 'is not a cursor this endpoint issued' }] });
    }
  });
});

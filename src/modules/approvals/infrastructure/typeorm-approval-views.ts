import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { ApprovalViews, type ApprovalFilter, type ApprovalKey } from '../application/approval-views.js';
import type { Approval } from '../domain/approval.js';
import { APPROVAL_COLUMNS, toApproval, type ApprovalRow } from './typeorm-approval.repository.js';

/** The approvals' listing, newest first, read with SQL (never the sealed input). */
export class TypeormApprovalViews extends ApprovalViews {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async list(filter: ApprovalFilter, after: ApprovalKey | undefined, limit: number): Promise<Approval[]> {
    const where: string[] = [];
    const parameters: unknown[] = [];
    const param = (value: unknown) => {
      parameters.push(value);
      return `$${parameters.length}`;
    };
    if (filter.status) where.push(`status = ${param(filter.status)}`);
    if (filter.decidableBy) {
      const { id, name, roles } = filter.decidableBy;
      // An approver (by a role it has, or its id or name listed), and not the call's own caller.
      where.push(
        `(COALESCE(approvers->'roles', '[]'::jsonb) ?| ${param(roles)}::text[] OR COALESCE(approvers->'principals', '[]'::jsonb) ?| ${param([id, name])}::text[])`,
        `caller_principal <> ${param(id)}`,
      );
    }
    if (after) where.push(`(created_at, id) < (${param(after.at)}::timestamptz, ${param(after.id)}::uuid)`);
    const rows = (await this.uow
      .manager()
      .query(`SELECT ${APPROVAL_COLUMNS} FROM approvals ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ${param(limit)}`, parameters)) as ApprovalRow[];
    return rows.map(toApproval);
  }
}

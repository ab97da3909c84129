import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '../../../../shared/uuid.js';
import { ListExecutionsQuery } from '../../../executions/application/list-executions/list-executions.query.js';
import { ApprovalRepository } from '../../domain/approval.js';
import { approvalNotFound } from '../../domain/approval-errors.js';
import { isApprover, isOwnCall } from '../../domain/eligibility.js';
import { toApprovalView, type ApprovalDetail } from '../approval-views.js';
import { GetApprovalQuery } from './get-approval.query.js';

/** How many of the caller's latest executions an approval shows. */
export const RECENT_CALLS = 10;

@QueryHandler(GetApprovalQuery)
export class GetApprovalHandler implements IQueryHandler<GetApprovalQuery, ApprovalDetail> {
  constructor(
    @Inject(ApprovalRepository) private readonly approvals: ApprovalRepository,
    @Inject(QueryBus) private readonly queries: QueryBus,
  ) {}

  async execute({ id, principal }: GetApprovalQuery): Promise<ApprovalDetail> {
    if (!isUuid(id)) throw approvalNotFound(id);
    const approval = await this.approvals.find(id);
    // One the principal may not decide is not shown to it at all.
    if (!approval || (!principal.admin && (!isApprover(approval.approvers, principal) || isOwnCall(approval.caller.principalId, principal)))) throw approvalNotFound(id);
    const recent = await this.queries.execute(new ListExecutionsQuery({ caller: approval.caller.principalId }, undefined, RECENT_CALLS));
    return { ...toApprovalView(approval), callerRecentExecutions: recent.items };
  }
}

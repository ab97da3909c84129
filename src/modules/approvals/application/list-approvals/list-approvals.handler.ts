import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { createdKey, decodeCursor, pageOf } from '../../../../shared/http/cursor.js';
import { ApprovalViews, toApprovalView, type ApprovalKey, type ApprovalPage } from '../approval-views.js';
import { ListApprovalsQuery } from './list-approvals.query.js';

@QueryHandler(ListApprovalsQuery)
export class ListApprovalsHandler implements IQueryHandler<ListApprovalsQuery, ApprovalPage> {
  constructor(@Inject(ApprovalViews) private readonly views: ApprovalViews) {}

  async execute({ filter, cursor, limit }: ListApprovalsQuery): Promise<ApprovalPage> {
    const after = decodeCursor<ApprovalKey & Record<string, string>>(cursor, ['at', 'id']);
    return pageOf(await this.views.list(filter, after, limit + 1), limit, toApprovalView, createdKey);
  }
}

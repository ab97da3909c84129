import { Query } from '@nestjs/cqrs';
import type { ApprovalFilter, ApprovalPage } from '../approval-views.js';

export class ListApprovalsQuery extends Query<ApprovalPage> {
  constructor(
    readonly filter: ApprovalFilter,
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}

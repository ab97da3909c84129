import { Query } from '@nestjs/cqrs';
import type { Deciding } from '../../domain/eligibility.js';
import type { ApprovalDetail } from '../approval-views.js';

export class GetApprovalQuery extends Query<ApprovalDetail> {
  constructor(
    readonly id: string,
    /** Who asks: an admin sees every approval, anyone else only those they may decide. */
    readonly principal: Deciding & { admin: boolean },
  ) {
    super();
  }
}

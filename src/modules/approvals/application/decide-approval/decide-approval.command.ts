import { Command } from '@nestjs/cqrs';
import type { Deciding } from '../../domain/eligibility.js';
import type { ApprovalView } from '../approval-views.js';

export class DecideApprovalCommand extends Command<ApprovalView> {
  constructor(
    readonly approvalId: string,
    readonly decision: 'approved' | 'denied',
    readonly comment: string | null,
    readonly principal: Deciding,
  ) {
    super();
  }
}

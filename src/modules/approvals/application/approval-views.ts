import type { Page } from '../../../shared/page.js';
import type { ShownExecution } from '../../executions/application/execution-view.js';
import type { Approval, ApprovalStatus } from '../domain/approval.js';
import type { Deciding } from '../domain/eligibility.js';

/** An approval as the API shows it. */
export interface ApprovalView {
  id: string;
  executionId: string;
  status: ApprovalStatus;
  interceptor: string;
  /** Why, for the approver: the approval interceptor's description. */
  message: string | null;
  tool: { qualifiedName: string; source: string; description: string | null; annotations: Record<string, unknown> | null };
  group: string | null;
  caller: { principalId: string; principalName: string; clientName?: string; correlationId?: string };
  channel: 'rest' | 'mcp';
  /** The arguments of the call, secrets redacted. */
  arguments: unknown;
  argumentsHash: string;
  approvers: { roles?: string[]; principals?: string[] };
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  decidedBy: { id: string; name: string } | null;
  comment: string | null;
}

/** An approval with what helps decide it: the caller's latest executions. */
export type ApprovalDetail = ApprovalView & { callerRecentExecutions: ShownExecution[] };

export interface ApprovalFilter {
  status?: ApprovalStatus;
  /** Only those this principal may decide (an approver, not the caller); absent: every approval (admins). */
  decidableBy?: Deciding;
}

export interface ApprovalKey {
  at: string;
  id: string;
}

export type ApprovalPage = Page<ApprovalView>;

/** Read side of the approvals. */
export abstract class ApprovalViews {
  /** Newest first, after `after`. */
  abstract list(filter: ApprovalFilter, after: ApprovalKey | undefined, limit: number): Promise<Approval[]>;
}

export function toApprovalView(approval: Approval): ApprovalView {
  const { principalId, principalName, clientName, correlationId } = approval.caller;
  return {
    id: approval.id,
    executionId: approval.executionId,
    status: approval.status,
    interceptor: approval.interceptor,
    message: approval.message,
    tool: { qualifiedName: approval.qualifiedName, source: approval.sourceName, description: approval.tool.description, annotations: approval.tool.annotations },
    group: approval.group,
    caller: { principalId, principalName, ...(clientName !== undefined ? { clientName } : {}), ...(correlationId !== undefined ? { correlationId } : {}) },
    channel: approval.channel,
    arguments: approval.arguments,
    argumentsHash: approval.argumentsHash,
    approvers: approval.approvers,
    createdAt: approval.createdAt.toISOString(),
    expiresAt: approval.expiresAt.toISOString(),
    decidedAt: approval.decidedAt?.toISOString() ?? null,
    decidedBy: approval.decidedBy,
    comment: approval.comment,
  };
}

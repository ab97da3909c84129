import type { ExecutionCaller, ExecutionChannel } from '../../executions/domain/execution.js';

/** `withdrawn`: the caller cancelled the call before anyone decided it. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired', 'withdrawn'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type ApprovalDecision = Exclude<ApprovalStatus, 'pending'>;

/** Who may decide a held call: a role the deciding principal has, or its id or name listed. */
export interface Approvers {
  roles?: string[];
  principals?: string[];
}

export interface Decider {
  id: string;
  name: string;
}

/**
 * A held call waiting for a person's decision (or decided): what the approver is shown — the
 * tool, the caller, the arguments redacted — and, sealed, what runs the call again.
 */
export interface Approval {
  id: string;
  executionId: string;
  /** The approval interceptor that held the call. */
  interceptor: string;
  qualifiedName: string;
  sourceName: string;
  group: string | null;
  caller: ExecutionCaller;
  channel: ExecutionChannel;
  /** Redacted, for display. */
  arguments: unknown;
  /** sha256 hex of the canonical JSON of the arguments the interceptor saw. */
  argumentsHash: string;
  tool: { description: string | null; annotations: Record<string, unknown> | null };
  /** Why, for the approver (the interceptor's description). */
  message: string | null;
  approvers: Approvers;
  status: ApprovalStatus;
  decidedBy: Decider | null;
  comment: string | null;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
}

/** The exact call to run again after the decision: its input, caller and channel. Sealed at rest, never shown. */
export interface HeldInput {
  input: Record<string, unknown> & { qualifiedName: string; arguments: unknown };
  caller: ExecutionCaller;
  channel: ExecutionChannel;
}

/** Port: approvals in `approvals`; the held input sealed at rest. */
export abstract class ApprovalRepository {
  /** Stores the approval with its held input sealed, and the caller's token (token-exchange sources) sealed apart. */
  abstract insert(approval: Approval, held: HeldInput, callerToken?: string): Promise<void>;
  abstract find(id: string): Promise<Approval | undefined>;
  /**
   * Decides a pending approval not expired yet, in one conditional statement: two deciders racing
   * get one winner. Answers the approval as decided, or undefined when it was not pending (any more).
   */
  abstract decide(id: string, decision: 'approved' | 'denied', by: Decider, comment: string | null): Promise<Approval | undefined>;
  /** Marks up to `limit` pending approvals past their expiry as expired, in one conditional statement; answers them. */
  abstract expireDue(limit: number): Promise<Approval[]>;
  /** Withdraws the pending approval of a call (its caller cancelled it), conditionally as a decision; undefined when it was decided first. */
  abstract withdraw(executionId: string): Promise<Approval | undefined>;
  /**
   * Decided approvals (any decision) older than `graceMs` whose call still waits: the process that
   * decided one stopped before it ran the call again. Up to `limit`, oldest decision first.
   */
  abstract decidedButWaiting(graceMs: number, limit: number): Promise<Approval[]>;
  /** The sealed input of an approval, opened. */
  abstract heldInput(id: string): Promise<HeldInput | undefined>;
  /** The caller's token kept with the held call, opened; undefined when none was kept or it was erased. */
  abstract callerToken(id: string): Promise<string | undefined>;
  /** Erases the caller's token kept with the held call (once the call ran again). */
  abstract eraseCallerToken(id: string): Promise<void>;
}

import { ApprovalViews, type ApprovalFilter, type ApprovalKey } from '../application/approval-views.js';
import { ApprovalRepository, type Approval, type Decider, type HeldInput } from '../domain/approval.js';
import { isApprover, isOwnCall } from '../domain/eligibility.js';

/** Approvals in memory, decided and expired as the SQL does it (pending and not expired, one winner), on a clock the spec moves. */
export class InMemoryApprovalRepository extends ApprovalRepository {
  readonly rows = new Map<string, { approval: Approval; held: HeldInput; callerToken?: string }>();
  now = new Date('2026-01-01T00:00:00.000Z');

  async insert(approval: Approval, held: HeldInput, callerToken?: string): Promise<void> {
    this.rows.set(approval.id, { approval: { ...approval }, held: structuredClone(held), ...(callerToken !== undefined ? { callerToken } : {}) });
  }

  async find(id: string): Promise<Approval | undefined> {
    const row = this.rows.get(id);
    return row ? { ...row.approval } : undefined;
  }

  async decide(id: string, decision: 'approved' | 'denied', by: Decider, comment: string | null): Promise<Approval | undefined> {
    const row = this.rows.get(id);
    if (!row || row.approval.status !== 'pending' || row.approval.expiresAt <= this.now) return undefined;
    row.approval = { ...row.approval, status: decision, decidedBy: by, comment, decidedAt: this.now };
    return { ...row.approval };
  }

  async withdraw(executionId: string): Promise<Approval | undefined> {
    const row = [...this.rows.values()].find((candidate) => candidate.approval.executionId === executionId && candidate.approval.status === 'pending');
    if (!row) return undefined;
    row.approval = { ...row.approval, status: 'withdrawn', decidedAt: this.now };
    return { ...row.approval };
  }

  async expireDue(limit: number): Promise<Approval[]> {
    const due = [...this.rows.values()].filter((row) => row.approval.status === 'pending' && row.approval.expiresAt <= this.now).slice(0, limit);
    for (const row of due) row.approval = { ...row.approval, status: 'expired', decidedAt: this.now };
    return due.map((row) => ({ ...row.approval }));
  }

  /** Calls still waiting after their decision, as the spec says (the SQL reads the calls' tasks). */
  readonly waitingCalls = new Set<string>();

  async decidedButWaiting(graceMs: number, limit: number): Promise<Approval[]> {
    const before = this.now.getTime() - graceMs;
    const decided = [...this.rows.values()].filter((row) => row.approval.status !== 'pending' && (row.approval.decidedAt?.getTime() ?? Infinity) < before && this.waitingCalls.has(row.approval.executionId));
    return decided.slice(0, limit).map((row) => ({ ...row.approval }));
  }

  async heldInput(id: string): Promise<HeldInput | undefined> {
    return this.rows.get(id)?.held;
  }

  async callerToken(id: string): Promise<string | undefined> {
    return this.rows.get(id)?.callerToken;
  }

  async eraseCallerToken(id: string): Promise<void> {
    const row = this.rows.get(id);
    if (row) delete row.callerToken;
  }
}

/** A pending approval of a call by `caller-1`, held by `four-eyes` for admins and the principal `ops`, expiring in an hour. */
export function aPendingApproval(changes: Partial<Approval> = {}): Approval {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    executionId: '01900000-0000-7000-8000-000000000001',
    interceptor: 'four-eyes',
    qualifiedName: 'ev__echo',
    sourceName: 'ev',
    group: null,
    caller: { principalId: 'caller-1', principalName: 'caller' },
    channel: 'rest',
    arguments: { message: 'hi' },
    argumentsHash: 'hash',
    tool: { description: null, annotations: null },
    message: null,
    approvers: { roles: ['admin'], principals: ['ops'] },
    status: 'pending',
    decidedBy: null,
    comment: null,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    expiresAt: new Date('2026-01-01T01:00:00.000Z'),
    decidedAt: null,
    ...changes,
  };
}

/** ApprovalViews over an InMemoryApprovalRepository's rows, filtered and ordered as the SQL does (newest first, then id). */
export class InMemoryApprovalViews extends ApprovalViews {
  constructor(private readonly repository: InMemoryApprovalRepository) {
    super();
  }

  async list(filter: ApprovalFilter, after: ApprovalKey | undefined, limit: number): Promise<Approval[]> {
    const key = (approval: Approval) => [approval.createdAt.getTime(), approval.id] as const;
    const before = (approval: Approval) => {
      if (!after) return true;
      const [at, id] = key(approval);
      const afterAt = Date.parse(after.at);
      return at < afterAt || (at === afterAt && id < after.id);
    };
    const decidable = (approval: Approval) => !filter.decidableBy || (isApprover(approval.approvers, filter.decidableBy) && !isOwnCall(approval.caller.principalId, filter.decidableBy));
    return [...this.repository.rows.values()]
      .map((row) => row.approval)
      .filter((approval) => (!filter.status || approval.status === filter.status) && decidable(approval) && before(approval))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map((approval) => ({ ...approval }));
  }
}

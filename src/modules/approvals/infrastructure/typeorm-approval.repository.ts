import type { SecretCipher, SealedValue } from '../../../shared/crypto/secret-cipher.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { ApprovalRepository, type Approval, type ApprovalStatus, type Approvers, type Decider, type HeldInput } from '../domain/approval.js';
import type { ExecutionCaller } from '../../executions/domain/execution.js';

/** A row of `approvals` as SQL answers it (snake_case). */
interface ApprovalRow {
  id: string;
  execution_id: string;
  interceptor: string;
  qualified_name: string;
  source_name: string;
  group_name: string | null;
  caller: ExecutionCaller;
  channel: 'rest' | 'mcp';
  arguments: unknown;
  arguments_hash: string;
  tool_description: string | null;
  tool_annotations: Record<string, unknown> | null;
  message: string | null;
  approvers: Approvers;
  status: ApprovalStatus;
  decided_by: Decider | null;
  comment: string | null;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
}

/** Every column but the sealed input: what is shown. */
export const APPROVAL_COLUMNS = `id, execution_id, interceptor, qualified_name, source_name, group_name, caller, channel, arguments, arguments_hash,
  tool_description, tool_annotations, message, approvers, status, decided_by, comment, created_at, expires_at, decided_at`;

/**
 * Approvals in `approvals` (an UPDATE … RETURNING is read through a CTE: the driver answers a bare
 * one as [rows, count]), in the current unit of work. The held input is sealed with the cipher
 * given (a key derived for this purpose), the approval's id bound in as associated data, so a
 * sealed input cannot be moved to another approval. Decisions and expiries are conditional
 * statements on `status = 'pending'` and the database's clock, so any number of processes may
 * race on one approval and one wins.
 */
export class TypeormApprovalRepository extends ApprovalRepository {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T> {
    return this.uow.manager().query(sql, parameters) as Promise<T>;
  }

  async insert(approval: Approval, held: HeldInput, callerToken?: string): Promise<void> {
    const sealed = this.cipher.sealJson(held, associatedData(approval.id));
    const sealedToken = callerToken === undefined ? null : JSON.stringify(this.cipher.sealJson(callerToken, tokenAssociatedData(approval.id)));
    await this.query(
      `INSERT INTO approvals (id, execution_id, interceptor, qualified_name, source_name, group_name, caller, caller_principal, channel, arguments,
                              arguments_hash, sealed_input, tool_description, tool_annotations, message, approvers, status, decided_by, comment,
                              created_at, expires_at, decided_at, sealed_caller_token)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
      [
        approval.id,
        approval.executionId,
        approval.interceptor,
        approval.qualifiedName,
        approval.sourceName,
        approval.group,
        JSON.stringify(approval.caller),
        approval.caller.principalId,
        approval.channel,
        JSON.stringify(approval.arguments ?? null),
        approval.argumentsHash,
        JSON.stringify(sealed),
        approval.tool.description,
        approval.tool.annotations === null ? null : JSON.stringify(approval.tool.annotations),
        approval.message,
        JSON.stringify(approval.approvers),
        approval.status,
        approval.decidedBy === null ? null : JSON.stringify(approval.decidedBy),
        approval.comment,
        approval.createdAt,
        approval.expiresAt,
        approval.decidedAt,
        sealedToken,
      ],
    );
  }

  async find(id: string): Promise<Approval | undefined> {
    const rows = await this.query<ApprovalRow[]>(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE id = $1`, [id]);
    return rows[0] ? toApproval(rows[0]) : undefined;
  }

  async decide(id: string, decision: 'approved' | 'denied', by: Decider, comment: string | null): Promise<Approval | undefined> {
    const rows = await this.query<ApprovalRow[]>(
      `WITH decided AS (
         UPDATE approvals SET status = $2, decided_by = $3, comment = $4, decided_at = now()
         WHERE id = $1 AND status = 'pending' AND expires_at > now()
         RETURNING ${APPROVAL_COLUMNS}
       ) SELECT * FROM decided`,
      [id, decision, JSON.stringify(by), comment],
    );
    return rows[0] ? toApproval(rows[0]) : undefined;
  }

  async withdraw(executionId: string): Promise<Approval | undefined> {
    const rows = await this.query<ApprovalRow[]>(
      `WITH withdrawn AS (
         UPDATE approvals SET status = 'withdrawn', decided_at = now() WHERE execution_id = $1 AND status = 'pending' RETURNING ${APPROVAL_COLUMNS}
       ) SELECT * FROM withdrawn`,
      [executionId],
    );
    return rows[0] ? toApproval(rows[0]) : undefined;
  }

  async expireDue(limit: number): Promise<Approval[]> {
    const rows = await this.query<ApprovalRow[]>(
      `WITH expired AS (
         UPDATE approvals SET status = 'expired', decided_at = now()
         WHERE id IN (SELECT id FROM approvals WHERE status = 'pending' AND expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           AND status = 'pending'
         RETURNING ${APPROVAL_COLUMNS}
       ) SELECT * FROM expired`,
      [limit],
    );
    return rows.map(toApproval);
  }

  async decidedButWaiting(graceMs: number, limit: number): Promise<Approval[]> {
    // The call's task is still held (resuming takes it first, see ExecutionTasks.claimHeld).
    const rows = await this.query<ApprovalRow[]>(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals a
        WHERE a.status <> 'pending' AND a.decided_at < now() - make_interval(secs => $1::double precision / 1000)
          AND EXISTS (SELECT 1 FROM execution_tasks t WHERE t.id = a.execution_id AND t.status = 'pending_approval')
        ORDER BY a.decided_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map(toApproval);
  }

  async heldInput(id: string): Promise<HeldInput | undefined> {
    const rows = await this.query<{ sealed_input: SealedValue }[]>(`SELECT sealed_input FROM approvals WHERE id = $1`, [id]);
    return rows[0] ? this.cipher.openJson<HeldInput>(rows[0].sealed_input, associatedData(id)) : undefined;
  }

  async callerToken(id: string): Promise<string | undefined> {
    const rows = await this.query<{ sealed_caller_token: SealedValue | null }[]>(`SELECT sealed_caller_token FROM approvals WHERE id = $1`, [id]);
    const sealed = rows[0]?.sealed_caller_token;
    return sealed ? this.cipher.openJson<string>(sealed, tokenAssociatedData(id)) : undefined;
  }

  async eraseCallerToken(id: string): Promise<void> {
    await this.query(`UPDATE approvals SET sealed_caller_token = NULL WHERE id = $1 AND sealed_caller_token IS NOT NULL`, [id]);
  }
}

function associatedData(id: string): string {
  return `approval:${id}`;
}

/** The caller's token is bound to its approval too, and cannot pass for its held input (nor the input for it). */
function tokenAssociatedData(id: string): string {
  return `approval:${id}:caller-token`;
}

export function toApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    executionId: row.execution_id,
    interceptor: row.interceptor,
    qualifiedName: row.qualified_name,
    sourceName: row.source_name,
    group: row.group_name,
    caller: row.caller,
    channel: row.channel,
    arguments: row.arguments,
    argumentsHash: row.arguments_hash,
    tool: { description: row.tool_description, annotations: row.tool_annotations },
    message: row.message,
    approvers: row.approvers,
    status: row.status,
    decidedBy: row.decided_by,
    comment: row.comment,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    decidedAt: row.decided_at === null ? null : new Date(row.decided_at),
  };
}

export type { ApprovalRow };

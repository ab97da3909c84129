import type { DataSource } from 'typeorm';
import { isUuid } from '../../../shared/uuid.js';
import { ExecutionTasks, type ExecutionTask, type ExecutionTaskPatch, type TaskInputRequest, type WaitingFilter } from '../domain/execution-task.js';

interface TaskRow {
  id: string;
  caller_principal: string;
  caller_name: string;
  qualified_name: string;
  channel: string;
  status: string;
  status_message: string | null;
  created_at: Date;
  updated_at: Date;
  ttl_ms: string | number | null;
  poll_interval_ms: number;
  cancel_requested: boolean;
  upstream_task_id: string | null;
  approval_id: string | null;
  input_requests: Record<string, TaskInputRequest> | null;
  source_id: string | null;
  source_name: string | null;
  group_name: string | null;
}

const PATCH_COLUMNS: Record<keyof ExecutionTaskPatch, string> = {
  status: 'status',
  statusMessage: 'status_message',
  upstreamTaskId: 'upstream_task_id',
  approvalId: 'approval_id',
  inputRequests: 'input_requests',
  qualifiedName: 'qualified_name',
  sourceId: 'source_id',
  sourceName: 'source_name',
  group: 'group_name',
};

/** `execution_tasks` in PostgreSQL, outside any request transaction: a task is visible to every replica once stored. */
export class TypeormExecutionTasks extends ExecutionTasks {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async create(task: ExecutionTask): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO execution_tasks (id, caller_principal, caller_name, qualified_name, channel, status, status_message, created_at, updated_at,
                                    ttl_ms, poll_interval_ms, cancel_requested, upstream_task_id, approval_id, source_id, source_name, group_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT (id) DO NOTHING`,
      [
        task.id,
        task.principalId,
        task.principalName,
        task.qualifiedName,
        task.channel,
        task.status,
        task.statusMessage,
        task.createdAt,
        task.updatedAt,
        task.ttlMs,
        task.pollIntervalMs,
        task.cancelRequested,
        task.upstreamTaskId,
        task.approvalId,
        task.sourceId,
        task.sourceName,
        task.group,
      ],
    );
  }

  async get(id: string): Promise<ExecutionTask | undefined> {
    const rows: TaskRow[] = await this.dataSource.query(`SELECT * FROM execution_tasks WHERE id = $1`, [id]);
    return rows[0] ? toTask(rows[0]) : undefined;
  }

  async update(id: string, patch: ExecutionTaskPatch): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    for (const [key, column] of Object.entries(PATCH_COLUMNS) as [keyof ExecutionTaskPatch, string][]) {
      if (!(key in patch)) continue;
      const value = patch[key] ?? null;
      params.push(key === 'inputRequests' && value !== null ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}`);
    }
    if (sets.length === 0) return;
    await this.dataSource.query(`UPDATE execution_tasks SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
  }

  async claimHeld(id: string): Promise<boolean> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH claimed AS (UPDATE execution_tasks SET status = 'working', status_message = NULL, updated_at = now() WHERE id = $1 AND status = 'pending_approval' RETURNING id) SELECT id FROM claimed`,
      [id],
    );
    return rows.length === 1;
  }

  async putInputResponses(id: string, responses: Record<string, unknown>): Promise<void> {
    // The answered requests leave the open ones at once, so that every replica's next read shows it.
    await this.dataSource.query(
      `UPDATE execution_tasks SET input_responses = COALESCE(input_responses, '{}'::jsonb) || $2::jsonb,
              input_requests = NULLIF(COALESCE(input_requests, '{}'::jsonb) - $3::text[], '{}'::jsonb),
              status = CASE WHEN status = 'awaiting_input' AND (COALESCE(input_requests, '{}'::jsonb) - $3::text[]) = '{}'::jsonb THEN 'working' ELSE status END,
              updated_at = now()
        WHERE id = $1`,
      [id, JSON.stringify(responses), Object.keys(responses)],
    );
  }

  async takeInputResponses(id: string): Promise<Record<string, unknown> | undefined> {
    const rows: { taken: Record<string, unknown> | null }[] = await this.dataSource.query(
      // Locked first, so that of two processes taking at once one gets the answers and the other none.
      `WITH old AS (SELECT id, input_responses FROM execution_tasks WHERE id = $1 AND input_responses IS NOT NULL FOR UPDATE),
            cleared AS (UPDATE execution_tasks SET input_responses = NULL FROM old WHERE execution_tasks.id = old.id RETURNING old.input_responses AS taken)
       SELECT taken FROM cleared`,
      [id],
    );
    return rows[0]?.taken ?? undefined;
  }

  async requestCancel(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE execution_tasks SET cancel_requested = true, updated_at = now() WHERE id = $1`, [id]);
  }

  async listByPrincipal(principalId: string, after: string | undefined, limit: number): Promise<ExecutionTask[]> {
    const rows: TaskRow[] =
      after === undefined
        ? await this.dataSource.query(`SELECT * FROM execution_tasks WHERE caller_principal = $1 ORDER BY id DESC LIMIT $2`, [principalId, limit])
        : await this.dataSource.query(`SELECT * FROM execution_tasks WHERE caller_principal = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, [principalId, after, limit]);
    return rows.map(toTask);
  }

  async listWaiting(filter: WaitingFilter, after: { at: Date; id: string } | undefined, now: Date, limit: number): Promise<ExecutionTask[]> {
    const params: unknown[] = [now];
    const where = ['NOT EXISTS (SELECT 1 FROM executions e WHERE e.id = t.id)', '(t.ttl_ms IS NULL OR t.created_at + make_interval(secs => t.ttl_ms / 1000.0) >= $1)'];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filter.tool) where.push(`t.qualified_name = ${param(filter.tool)}`);
    if (filter.source) {
      // source_id is a uuid column: a name must not be compared with it.
      where.push(isUuid(filter.source) ? `(t.source_id = ${param(filter.source)}::uuid OR t.source_name = ${param(filter.source)})` : `t.source_name = ${param(filter.source)}`);
    }
    if (filter.group) where.push(`t.group_name = ${param(filter.group)}`);
    if (filter.statuses?.length) where.push(`t.status = ANY(${param(filter.statuses)}::text[])`);
    if (filter.caller) where.push(`t.caller_principal = ${param(filter.caller)}`);
    if (filter.since) where.push(`t.created_at >= ${param(filter.since)}`);
    if (filter.until) where.push(`t.created_at < ${param(filter.until)}`);
    if (after) where.push(`(t.created_at, t.id) < (${param(after.at)}::timestamptz, ${param(after.id)}::uuid)`);
    const rows: TaskRow[] = await this.dataSource.query(`SELECT t.* FROM execution_tasks t WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC, t.id DESC LIMIT ${param(limit)}`, params);
    return rows.map(toTask);
  }

  async removeExpired(now: Date): Promise<number> {
    const [, count] = (await this.dataSource.query(
      `DELETE FROM execution_tasks WHERE ttl_ms IS NOT NULL AND created_at + make_interval(secs => ttl_ms / 1000.0) < $1`,
      [now],
    )) as [unknown, number];
    return count;
  }
}

function toTask(row: TaskRow): ExecutionTask {
  return {
    id: row.id,
    principalId: row.caller_principal,
    principalName: row.caller_name,
    qualifiedName: row.qualified_name,
    channel: row.channel === 'mcp' ? 'mcp' : 'rest',
    status: row.status === 'pending_approval' || row.status === 'awaiting_input' ? row.status : 'working',
    statusMessage: row.status_message,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    ttlMs: row.ttl_ms === null ? null : Number(row.ttl_ms),
    pollIntervalMs: row.poll_interval_ms,
    cancelRequested: row.cancel_requested,
    upstreamTaskId: row.upstream_task_id,
    approvalId: row.approval_id,
    inputRequests: row.input_requests ?? null,
    sourceId: row.source_id,
    sourceName: row.source_name,
    group: row.group_name,
  };
}

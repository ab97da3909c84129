import { ExecutionTasks, type ExecutionTask, type ExecutionTaskPatch, type WaitingFilter } from '../domain/execution-task.js';

/** ExecutionTasks in memory, for unit specs. */
export class InMemoryExecutionTasks extends ExecutionTasks {
  readonly rows = new Map<string, ExecutionTask>();
  readonly responses = new Map<string, Record<string, unknown>>();

  create(task: ExecutionTask): Promise<void> {
    if (!this.rows.has(task.id)) this.rows.set(task.id, { ...task });
    return Promise.resolve();
  }

  get(id: string): Promise<ExecutionTask | undefined> {
    const row = this.rows.get(id);
    return Promise.resolve(row ? { ...row } : undefined);
  }

  update(id: string, patch: ExecutionTaskPatch): Promise<void> {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, ...patch, updatedAt: new Date() });
    return Promise.resolve();
  }

  claimHeld(id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.status !== 'pending_approval') return Promise.resolve(false);
    this.rows.set(id, { ...row, status: 'working', statusMessage: null, updatedAt: new Date() });
    return Promise.resolve(true);
  }

  putInputResponses(id: string, responses: Record<string, unknown>): Promise<void> {
    const row = this.rows.get(id);
    if (!row) return Promise.resolve();
    this.responses.set(id, { ...this.responses.get(id), ...responses });
    const open = Object.fromEntries(Object.entries(row.inputRequests ?? {}).filter(([key]) => !(key in responses)));
    const empty = Object.keys(open).length === 0;
    this.rows.set(id, { ...row, inputRequests: empty ? null : open, status: row.status === 'awaiting_input' && empty ? 'working' : row.status, updatedAt: new Date() });
    return Promise.resolve();
  }

  takeInputResponses(id: string): Promise<Record<string, unknown> | undefined> {
    const taken = this.responses.get(id);
    this.responses.delete(id);
    return Promise.resolve(taken);
  }

  requestCancel(id: string): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.cancelRequested = true;
    return Promise.resolve();
  }

  listByPrincipal(principalId: string, after: string | undefined, limit: number): Promise<ExecutionTask[]> {
    const mine = [...this.rows.values()].filter((row) => row.principalId === principalId && (after === undefined || row.id < after));
    return Promise.resolve(mine.sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, limit).map((row) => ({ ...row })));
  }

  /** The tasks as listWaiting filters them; `finished` ids stand for the calls that have a final record. */
  readonly finished = new Set<string>();

  listWaiting(filter: WaitingFilter, after: { at: Date; id: string } | undefined, now: Date, limit: number): Promise<ExecutionTask[]> {
    const at = (row: ExecutionTask) => row.createdAt.getTime();
    const shown = [...this.rows.values()].filter(
      (row) =>
        !this.finished.has(row.id) &&
        (row.ttlMs === null || at(row) + row.ttlMs >= now.getTime()) &&
        (!filter.tool || row.qualifiedName === filter.tool) &&
        (!filter.source || row.sourceName === filter.source || row.sourceId === filter.source) &&
        (!filter.group || row.group === filter.group) &&
        (!filter.statuses?.length || filter.statuses.includes(row.status)) &&
        (!filter.caller || row.principalId === filter.caller) &&
        (!filter.since || at(row) >= filter.since.getTime()) &&
        (!filter.until || at(row) < filter.until.getTime()) &&
        (!after || at(row) < after.at.getTime() || (at(row) === after.at.getTime() && row.id < after.id)),
    );
    return Promise.resolve(
      shown
        .sort((a, b) => at(b) - at(a) || (a.id < b.id ? 1 : -1))
        .slice(0, limit)
        .map((row) => ({ ...row })),
    );
  }

  removeExpired(now: Date): Promise<number> {
    let removed = 0;
    for (const [id, row] of this.rows) {
      if (row.ttlMs !== null && row.createdAt.getTime() + row.ttlMs < now.getTime() && this.rows.delete(id)) removed += 1;
    }
    return Promise.resolve(removed);
  }
}

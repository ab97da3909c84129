/**
 * Wakes whoever follows a task (a caller awaiting its end, a status notification) when its state
 * changed: it started, was held for a decision, runs again, or ended. This one tells this process
 * only; the PostgreSQL one (PgTaskChanges) tells every process sharing the database as well, so a
 * change made on one replica reaches a listener on another at once. The state itself is read from
 * the database: a change is only a reason to look again, and a lost one is made up for by polling.
 */
export class TaskChanges {
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Tells the followers of a task, here (at once) and, where there are others, in the other processes. */
  announce(taskId: string): void {
    this.heard(taskId);
  }

  /** Calls `listener` at each change of the task from now on; answers the function that stops it (idempotent). */
  onChange(taskId: string, listener: () => void): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      const current = this.listeners.get(taskId);
      if (!current?.delete(listener)) return;
      if (current.size === 0) this.listeners.delete(taskId);
    };
  }

  /** A change of the task, made here or announced by another process. */
  heard(taskId: string): void {
    const set = this.listeners.get(taskId);
    if (set) for (const listener of [...set]) listener();
  }

  /** Any task may have changed (announcements may have been missed): every follower looks again. */
  heardAll(): void {
    for (const taskId of [...this.listeners.keys()]) this.heard(taskId);
  }

  /** How many tasks are followed in this process (for specs). */
  get followedCount(): number {
    return this.listeners.size;
  }
}

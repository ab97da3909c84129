import { Conflict } from '../../../shared/domain-error.js';
import { Source, type SourceProps } from '../domain/source.js';
import { SourceRepository } from '../domain/source.repository.js';

/**
 * Sources kept as a database keeps rows: copies go in and come out, so a handler's change is stored
 * only when it saves, and a save is refused when the source moved since it was loaded.
 */
export class InMemorySourceRepository extends SourceRepository {
  private readonly rows = new Map<string, SourceProps>();
  private readonly leases = new Set<string>();
  /** What each `findLive` asked for with a lock, as asked. */
  readonly locked: string[] = [];

  constructor(sources: readonly Source[] = []) {
    super();
    for (const source of sources) this.rows.set(source.id, structuredClone(source.snapshot()));
  }

  /** The row as stored now, removed sources included. */
  stored(idOrName: string): Readonly<SourceProps> | undefined {
    return [...this.rows.values()].find((row) => row.id === idOrName || row.name === idOrName);
  }

  get count(): number {
    return this.rows.size;
  }

  async findLive(idOrName: string, options: { lock?: boolean } = {}): Promise<Source | undefined> {
    if (options.lock) this.locked.push(idOrName);
    const row = this.live().find((r) => r.id === idOrName || r.name === idOrName);
    return row ? Source.restore(structuredClone(row)) : undefined;
  }

  async nameTaken(name: string): Promise<boolean> {
    return this.live().some((row) => row.name === name);
  }

  async listLive(): Promise<Source[]> {
    return this.live()
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((row) => Source.restore(structuredClone(row)));
  }

  async insert(source: Source): Promise<void> {
    if (await this.nameTaken(source.name)) {
      throw new Conflict('SOURCE_NAME_TAKEN', `A source named "${source.name}" already exists.`, [{ path: 'name', message: 'is already taken' }]);
    }
    this.rows.set(source.id, structuredClone(source.snapshot()));
  }

  async save(source: Source): Promise<void> {
    const row = this.rows.get(source.id);
    if (!row || row.version !== source.version) {
      throw new Conflict('STALE_VERSION', `Source "${source.name}" was changed concurrently; reload it and try again.`);
    }
    this.rows.set(source.id, { ...structuredClone(source.snapshot()), version: source.version + 1 });
    source.markSaved();
  }

  async claimDueForRefresh(now: Date, _leaseMs: number, limit: number, retryInitialMs: number): Promise<string[]> {
    const due = this.live().filter((row) => {
      if (!row.enabled || row.refreshIntervalSeconds <= 0 || this.leases.has(row.id)) return false;
      if (row.lastRefreshAt === null) return true;
      const intervalMs = row.refreshIntervalSeconds * 1000;
      const waitMs = row.consecutiveFailures > 0 ? Math.min(intervalMs, retryInitialMs * 2 ** Math.min(row.consecutiveFailures - 1, 30)) : intervalMs;
      return row.lastRefreshAt.getTime() + waitMs <= now.getTime();
    });
    const claimed = due.slice(0, limit).map((row) => row.id);
    for (const id of claimed) this.leases.add(id);
    return claimed;
  }

  async releaseRefreshLease(id: string): Promise<void> {
    this.leases.delete(id);
  }

  private live(): SourceProps[] {
    return [...this.rows.values()].filter((row) => row.deletedAt === null);
  }
}

import { ApiKeyRepository, keyState, type ApiKey } from '../domain/api-key.js';

/** API keys kept in memory: copies in and out, newest first in lists, active ones oldest first; keeps the ids looked up. */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  private readonly rows = new Map<string, ApiKey>();
  readonly lookedUp: string[] = [];

  constructor(keys: readonly ApiKey[] = []) {
    super();
    for (const key of keys) this.rows.set(key.id, structuredClone(key));
  }

  /** The key as stored now. */
  stored(id: string): ApiKey | undefined {
    const row = this.rows.get(id);
    return row && structuredClone(row);
  }

  async insert(key: ApiKey): Promise<void> {
    this.rows.set(key.id, structuredClone(key));
  }

  async findByHash(hash: string): Promise<ApiKey | undefined> {
    const row = [...this.rows.values()].find((key) => key.hash === hash);
    return row && structuredClone(row);
  }

  async findById(id: string): Promise<ApiKey | undefined> {
    this.lookedUp.push(id);
    return this.stored(id);
  }

  async list(after: { createdAt: Date; id: string } | undefined, limit: number): Promise<ApiKey[]> {
    const newestFirst = [...this.rows.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const from = after ? newestFirst.findIndex((key) => key.id === after.id) + 1 : 0;
    return newestFirst.slice(from, from + limit).map((key) => structuredClone(key));
  }

  async revoke(id: string, at: Date): Promise<ApiKey | undefined> {
    const row = this.rows.get(id);
    if (!row) return undefined;
    row.revokedAt ??= at;
    return structuredClone(row);
  }

  async touch(id: string, at: Date): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.lastUsedAt = at;
  }

  async listActive(now: Date): Promise<ApiKey[]> {
    return [...this.rows.values()]
      .filter((key) => keyState(key, now) === 'active')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((key) => structuredClone(key));
  }

  async update(key: ApiKey): Promise<boolean> {
    const row = this.rows.get(key.id);
    if (!row || row.revokedAt !== null) return false;
    this.rows.set(key.id, structuredClone(key));
    return true;
  }
}

import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { ApiKeyRepository, type ApiKey } from '../domain/api-key.js';
import { isRole } from '../../../shared/principal/permissions.js';

interface Row {
  id: string;
  name: string;
  owner: string | null;
  role: string;
  prefix: string;
  hash: string;
  created_at: Date;
  created_by: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  allowed_sources: string[] | null;
  allowed_tools: string[] | null;
  allowed_groups: string[] | null;
  rate_limit_per_minute: number | null;
}

export class TypeormApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async insert(key: ApiKey): Promise<void> {
    await this.uow
      .manager()
      .query(
        `INSERT INTO api_keys (id, name, owner, role, prefix, hash, created_at, created_by, expires_at, revoked_at, last_used_at, allowed_sources, allowed_tools, allowed_groups, rate_limit_per_minute)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [key.id, key.name, key.owner, key.role, key.prefix, key.hash, key.createdAt, key.createdBy, key.expiresAt, key.revokedAt, key.lastUsedAt, key.scope.sources ?? null, key.scope.tools ?? null, key.scope.groups ?? null, key.rateLimitPerMinute],
      );
  }

  async findByHash(hash: string): Promise<ApiKey | undefined> {
    const rows: Row[] = await this.uow.manager().query(`SELECT * FROM api_keys WHERE hash = $1`, [hash]);
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async findById(id: string): Promise<ApiKey | undefined> {
    const rows: Row[] = await this.uow.manager().query(`SELECT * FROM api_keys WHERE id = $1`, [id]);
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async list(after: { createdAt: Date; id: string } | undefined, limit: number): Promise<ApiKey[]> {
    const rows: Row[] = after
      ? await this.uow.manager().query(`SELECT * FROM api_keys WHERE (created_at, id) < ($1, $2) ORDER BY created_at DESC, id DESC LIMIT $3`, [after.createdAt, after.id, limit])
      : await this.uow.manager().query(`SELECT * FROM api_keys ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]);
    return rows.map(toKey);
  }

  async revoke(id: string, at: Date): Promise<ApiKey | undefined> {
    // As a SELECT: TypeORM answers an UPDATE's rows as [rows, count].
    const rows: Row[] = await this.uow.manager().query(`WITH revoked AS (UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING *) SELECT * FROM revoked`, [id, at]);
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  async listActive(now: Date): Promise<ApiKey[]> {
    const rows: Row[] = await this.uow
      .manager()
      .query(`SELECT * FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1) ORDER BY created_at, id`, [now]);
    return rows.map(toKey);
  }

  async update(key: ApiKey): Promise<boolean> {
    const rows: { id: string }[] = await this.uow.manager().query(
      `WITH updated AS (
         UPDATE api_keys SET name = $2, owner = $3, role = $4, prefix = $5, hash = $6, expires_at = $7, allowed_sources = $8, allowed_tools = $9, allowed_groups = $10, rate_limit_per_minute = $11
          WHERE id = $1 AND revoked_at IS NULL RETURNING id)
       SELECT id FROM updated`,
      [key.id, key.name, key.owner, key.role, key.prefix, key.hash, key.expiresAt, key.scope.sources ?? null, key.scope.tools ?? null, key.scope.groups ?? null, key.rateLimitPerMinute],
    );
    return rows.length > 0;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.uow.manager().query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, [id, at]);
  }
}

function toKey(row: Row): ApiKey {
  if (!isRole(row.role)) throw new Error(`api key ${row.id} has an unknown role`);
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    role: row.role,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.created_at,
    createdBy: row.created_by,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    rateLimitPerMinute: row.rate_limit_per_minute,
    scope: {
      ...(row.allowed_sources ? { sources: row.allowed_sources } : {}),
      ...(row.allowed_tools ? { tools: row.allowed_tools } : {}),
      ...(row.allowed_groups ? { groups: row.allowed_groups } : {}),
    },
  };
}

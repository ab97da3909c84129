import { keyState, type ApiKey } from '../domain/api-key.js';
import type { Role } from '../../../shared/principal/permissions.js';

/** An API key as the API shows it: never the key, never its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  owner: string | null;
  role: Role;
  prefix: string;
  state: 'active' | 'revoked' | 'expired';
  createdAt: string;
  createdBy: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** Source name patterns the key is restricted to; null: any. */
  allowedSources: string[] | null;
  /** Qualified tool name patterns the key is restricted to; null: any. */
  allowedTools: string[] | null;
  /** Tool group name patterns: the key sees and calls tools only through these groups; null: any, and outside groups too. */
  allowedGroups: string[] | null;
  /** Calls per minute; null: the default. */
  rateLimitPerMinute: number | null;
}

export function viewOf(key: ApiKey, now: Date): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    owner: key.owner,
    role: key.role,
    prefix: key.prefix,
    state: keyState(key, now),
    createdAt: key.createdAt.toISOString(),
    createdBy: key.createdBy,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    allowedSources: key.scope.sources ?? null,
    allowedTools: key.scope.tools ?? null,
    allowedGroups: key.scope.groups ?? null,
    rateLimitPerMinute: key.rateLimitPerMinute,
  };
}

/** What the audit trail shows of a key when it is created or changed: its settings and prefix, never the key. */
export function auditedSettings(key: ApiKey): Record<string, unknown> {
  return {
    role: key.role,
    owner: key.owner,
    prefix: key.prefix,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    allowedSources: key.scope.sources ?? null,
    allowedTools: key.scope.tools ?? null,
    allowedGroups: key.scope.groups ?? null,
    rateLimitPerMinute: key.rateLimitPerMinute,
  };
}

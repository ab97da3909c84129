import type { Role } from '../../../shared/principal/permissions.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { isRestricted } from './tool-scope.js';
import { type ToolScope } from '../../../shared/principal/tool-scope.js';

/** An API key as stored: never the key itself, only its hash and the first characters to recognise it. */
export interface ApiKey {
  id: string;
  name: string;
  /** Whom the key belongs to (a person, a team, an agent), free text. */
  owner: string | null;
  role: Role;
  /** The key's first characters (`tp_` and 8 more), to tell keys apart in lists and logs. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  createdAt: Date;
  createdBy: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Source and tool name patterns the key is restricted to (absent: not restricted). */
  scope: ToolScope;
  /** Calls per minute of this key's principal; null: the default (TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL). */
  rateLimitPerMinute: number | null;
}

export const API_KEY_NAME_MAX = 100;
export const API_KEY_OWNER_MAX = 200;

/** Whether the key still opens the door at `now`, and if not, why. */
export function keyState(key: ApiKey, now: Date): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function principalOf(key: ApiKey): Principal {
  return {
    id: key.id,
    name: key.name,
    kind: 'api-key',
    roles: [key.role],
    ...(isRestricted(key.scope) ? { scope: key.scope } : {}),
    ...(key.rateLimitPerMinute !== null ? { rateLimitPerMinute: key.rateLimitPerMinute } : {}),
  };
}

/** Port: where API keys are kept. */
export abstract class ApiKeyRepository {
  abstract insert(key: ApiKey): Promise<void>;
  abstract findByHash(hash: string): Promise<ApiKey | undefined>;
  abstract findById(id: string): Promise<ApiKey | undefined>;
  /** Newest first, after the given (createdAt, id) position. */
  abstract list(after: { createdAt: Date; id: string } | undefined, limit: number): Promise<ApiKey[]>;
  /** Marks the key revoked (once); answers the key as it is now. */
  abstract revoke(id: string, at: Date): Promise<ApiKey | undefined>;
  abstract touch(id: string, at: Date): Promise<void>;
  /** Keys neither revoked nor expired at `now`, oldest first. */
  abstract listActive(now: Date): Promise<ApiKey[]>;
  /** Stores a key's settings and secret (prefix, hash) as given, unless it was revoked meanwhile; answers whether it did. */
  abstract update(key: ApiKey): Promise<boolean>;
}

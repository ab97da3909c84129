import type { ApiKey } from '../../../access/domain/api-key.js';
import { STORED_VALUE } from '../../domain/config-plan.js';

/** An active key as a file declares it: what differs from the defaults, and `${stored}` for the key itself. */
export function exportedKey(key: ApiKey): Record<string, unknown> {
  return {
    name: key.name,
    role: key.role,
    ...(key.owner !== null ? { owner: key.owner } : {}),
    ...(key.expiresAt !== null ? { expiresAt: key.expiresAt.toISOString() } : {}),
    ...(key.scope.sources !== undefined ? { allowedSources: key.scope.sources } : {}),
    ...(key.scope.tools !== undefined ? { allowedTools: key.scope.tools } : {}),
    ...(key.scope.groups !== undefined ? { allowedGroups: key.scope.groups } : {}),
    ...(key.rateLimitPerMinute !== null ? { rateLimitPerMinute: key.rateLimitPerMinute } : {}),
    key: STORED_VALUE,
  };
}

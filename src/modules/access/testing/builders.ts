import { createHash } from 'node:crypto';
import type { ApiKey } from '../domain/api-key.js';

let made = 0;

/** A key in the format Toolplane makes (`tp_` and 43 base64url characters), different for each `seed`. */
export function aKeyValue(seed: string): string {
  return `tp_${createHash('sha256').update(seed).digest('base64url')}`;
}

/** An active agent key named `name` with a uuid of its own, stored as Toolplane stores the key `aKeyValue(name)`, with `overrides`. */
export function anApiKey(name: string, overrides: Partial<ApiKey> = {}): ApiKey {
  made += 1;
  const key = aKeyValue(name);
  return {
    id: `00000000-0000-4000-b000-${made.toString(16).padStart(12, '0')}`,
    name,
    owner: null,
    role: 'agent',
    prefix: key.slice(0, 11),
    hash: createHash('sha256').update(key).digest('hex'),
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, made)),
    createdBy: 'admin',
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    scope: {},
    rateLimitPerMinute: null,
    ...overrides,
  };
}

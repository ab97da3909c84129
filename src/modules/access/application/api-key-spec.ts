import type { ProblemList } from '../../../shared/domain-error.js';
import { API_KEY_NAME_MAX, API_KEY_OWNER_MAX, type ApiKey } from '../domain/api-key.js';
import { isRole, ROLES, type Role } from '../../../shared/principal/permissions.js';
import { MAX_SCOPE_PATTERNS, SCOPE_PATTERN } from '../domain/tool-scope.js';
import { type ToolScope } from '../../../shared/principal/tool-scope.js';

/** A key's settings as a request or a configuration file gives them, not checked yet. */
export interface ApiKeySpecInput {
  name: unknown;
  role: unknown;
  owner?: unknown;
  /** ISO 8601; absent or null: the key does not expire. */
  expiresAt?: unknown;
  /** Source name patterns (`*` wildcard) the key may see and call; absent or null: any. */
  allowedSources?: unknown;
  /** Qualified tool name patterns (`*` wildcard); absent or null: any. */
  allowedTools?: unknown;
  /** Tool group name patterns (`*` wildcard): the key sees and calls tools only through them; absent or null: any, and outside groups too. */
  allowedGroups?: unknown;
  /** Calls per minute; absent or null: the default. */
  rateLimitPerMinute?: unknown;
}

/** The settings of a key that can be declared and changed: everything but its secret and history. */
export type ApiKeySettings = Pick<ApiKey, 'name' | 'owner' | 'role' | 'expiresAt' | 'scope' | 'rateLimitPerMinute'>;

/** A key made by Toolplane or given to it: `tp_` and 256 random bits, base64url. */
export const API_KEY_FORMAT = /^tp_[A-Za-z0-9_-]{43}$/;
export const API_KEY_FORMAT_HINT = '`tp_` and 43 base64url characters (256 random bits), e.g. from `openssl rand -base64 32 | tr "+/" "-_" | tr -d "="`';

/**
 * Checks every setting (each problem added under its field's name) and answers them normalized.
 * `pastExpiry`: a request to make a key refuses an expiry already past; a file may declare one
 * (the key is meant to have expired by now).
 */
export function checkApiKeySpec(input: ApiKeySpecInput, now: Date, problems: ProblemList, pastExpiry: 'refuse' | 'allow' = 'refuse'): ApiKeySettings {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name.length === 0 || name.length > API_KEY_NAME_MAX || hasControlCharacters(name)) {
    problems.add('name', `must be 1 to ${API_KEY_NAME_MAX} characters, without control characters`);
  }
  if (!isRole(input.role)) problems.add('role', `must be one of ${ROLES.join(', ')}`);
  let owner: string | null = null;
  if (input.owner !== undefined && input.owner !== null) {
    owner = typeof input.owner === 'string' ? input.owner.trim() || null : null;
    if (typeof input.owner !== 'string' || (owner !== null && (owner.length > API_KEY_OWNER_MAX || hasControlCharacters(owner)))) {
      problems.add('owner', `must be at most ${API_KEY_OWNER_MAX} characters, without control characters`);
    }
  }
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined && input.expiresAt !== null) {
    // A YAML file may give a timestamp unquoted; it arrives as text all the same (JSON types only).
    const text = typeof input.expiresAt === 'string' ? input.expiresAt : '';
    expiresAt = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(expiresAt.getTime())) problems.add('expiresAt', 'must be an ISO 8601 date-time');
    else if (pastExpiry === 'refuse' && expiresAt.getTime() <= now.getTime()) problems.add('expiresAt', 'must be in the future');
  }
  const sources = patternList(input.allowedSources, 'allowedSources', problems);
  const tools = patternList(input.allowedTools, 'allowedTools', problems);
  const groups = patternList(input.allowedGroups, 'allowedGroups', problems);
  const rate = input.rateLimitPerMinute ?? null;
  if (rate !== null && (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1 || rate > 100_000_000)) {
    problems.add('rateLimitPerMinute', 'must be an integer from 1 to 100000000, or null');
  }
  return {
    name,
    owner,
    role: (isRole(input.role) ? input.role : 'agent') as Role,
    expiresAt,
    scope: scopeOf(sources, tools, groups),
    rateLimitPerMinute: typeof rate === 'number' ? rate : null,
  };
}

/** The settings whose values differ between a key and what is declared for it, named as a file names them. */
export function changedSettings(key: ApiKeySettings, wanted: ApiKeySettings): string[] {
  const fields: string[] = [];
  if (key.name !== wanted.name) fields.push('name');
  if (key.role !== wanted.role) fields.push('role');
  if (key.owner !== wanted.owner) fields.push('owner');
  if ((key.expiresAt?.getTime() ?? null) !== (wanted.expiresAt?.getTime() ?? null)) fields.push('expiresAt');
  if (!samePatterns(key.scope.sources, wanted.scope.sources)) fields.push('allowedSources');
  if (!samePatterns(key.scope.tools, wanted.scope.tools)) fields.push('allowedTools');
  if (!samePatterns(key.scope.groups, wanted.scope.groups)) fields.push('allowedGroups');
  if (key.rateLimitPerMinute !== wanted.rateLimitPerMinute) fields.push('rateLimitPerMinute');
  return fields;
}

function samePatterns(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((pattern, i) => pattern === b[i]);
}

function scopeOf(sources: string[] | undefined, tools: string[] | undefined, groups: string[] | undefined): ToolScope {
  return { ...(sources ? { sources } : {}), ...(tools ? { tools } : {}), ...(groups ? { groups } : {}) };
}

/** A list of name patterns, or undefined for "not restricted" (absent or null). */
function patternList(value: unknown, path: string, problems: ProblemList): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_SCOPE_PATTERNS) {
    problems.add(path, `must be a list of at most ${MAX_SCOPE_PATTERNS} name patterns, or null`);
    return undefined;
  }
  value.forEach((pattern, i) => {
    if (typeof pattern !== 'string' || !SCOPE_PATTERN.test(pattern)) problems.add(`${path}[${i}]`, 'must be 1 to 200 letters, digits, _ . - or * (any run of characters)');
  });
  return [...new Set(value.filter((pattern): pattern is string => typeof pattern === 'string'))];
}

function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

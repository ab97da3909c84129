/** What a route may require. Each REST route and MCP endpoint declares exactly one. */
export const PERMISSIONS = [
  'sources:read',
  'sources:write',
  'secrets:read',
  'secrets:write',
  'catalog:read',
  'tools:write',
  'tools:invoke',
  'mcp:use',
  'executions:read',
  'executions:read-all',
  'executions:payloads',
  'stats:read',
  'audit:read',
  'keys:manage',
  'groups:manage',
  'interceptors:manage',
  'reviews:read',
  'reviews:decide',
  'approvals:decide',
  'ops:read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['admin', 'operator', 'agent', 'auditor', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What each role may do:
 * - admin: everything;
 * - operator: run the sources (register, validate, change, refresh, remove), their secrets and
 *   their tools (enable, disable), and read how they are used and how Toolplane itself is doing (ops:read);
 * - agent: the catalog, calls (REST and MCP), and its own executions;
 * - auditor: read everything but secrets' values (none can) and the stored arguments and results;
 * - reviewer: read the sources and the catalog, decide the reviews of held tool definitions, and
 *   decide held calls whose approval interceptor names it (approvals:decide).
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  admin: PERMISSIONS,
  operator: ['sources:read', 'sources:write', 'secrets:read', 'secrets:write', 'catalog:read', 'tools:write', 'executions:read', 'executions:read-all', 'stats:read', 'ops:read'],
  agent: ['catalog:read', 'tools:invoke', 'mcp:use', 'executions:read', 'executions:payloads'],
  auditor: ['sources:read', 'secrets:read', 'catalog:read', 'executions:read', 'executions:read-all', 'stats:read', 'audit:read', 'reviews:read'],
  reviewer: ['sources:read', 'catalog:read', 'reviews:read', 'reviews:decide', 'approvals:decide'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleAllows(roles: readonly Role[], permission: Permission): boolean {
  return roles.some((role) => ROLE_PERMISSIONS[role].includes(permission));
}

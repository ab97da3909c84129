import { roleAllows, type Permission, type Role } from './permissions.js';
import type { ToolScope } from './tool-scope.js';

/** How a principal proved who it is. */
export type PrincipalKind = 'bootstrap-key' | 'api-key' | 'oidc' | 'anonymous';

/** Who is calling: the bootstrap admin, the owner of an API key, or anyone (auth off, loopback only). */
export interface Principal {
  id: string;
  name: string;
  kind: PrincipalKind;
  roles: Role[];
  /** The tools it may see and call, when restricted (see decideTool). */
  scope?: ToolScope;
  /** Its calls per minute (its key's own limit, or the default); absent: no limit. */
  rateLimitPerMinute?: number;
}

export const ANONYMOUS_DEVELOPER: Principal = { id: 'anonymous', name: 'anonymous (auth off)', kind: 'anonymous', roles: ['admin'] };
/** The principal of TOOLPLANE_ADMIN_KEY (or the generated admin.key). */
export const ADMIN: Principal = { id: 'admin', name: 'admin', kind: 'bootstrap-key', roles: ['admin'] };

export function may(principal: Principal, permission: Permission): boolean {
  return roleAllows(principal.roles, permission);
}

import type { Approvers } from './approval.js';

/** Who asks to decide: a principal's id, name and roles. */
export interface Deciding {
  id: string;
  name: string;
  roles: readonly string[];
}

/** Whether the principal is one of the approvers: a role it has, or its id or name listed. */
export function isApprover(approvers: Approvers, principal: Deciding): boolean {
  if (approvers.roles?.some((role) => principal.roles.includes(role))) return true;
  return approvers.principals?.some((listed) => listed === principal.id || listed === principal.name) ?? false;
}

/** Whether the principal is the caller of the held call itself (by id: names are not unique). */
export function isOwnCall(callerPrincipalId: string, principal: Deciding): boolean {
  return callerPrincipalId === principal.id;
}

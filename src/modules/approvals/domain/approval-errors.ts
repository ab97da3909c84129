import { Conflict, DomainError, NotFound } from '../../../shared/domain-error.js';

export function approvalNotFound(id: string): NotFound {
  return new NotFound('APPROVAL_NOT_FOUND', `No approval "${id.slice(0, 100)}".`);
}

export function approvalDecided(status: string): Conflict {
  return new Conflict('APPROVAL_DECIDED', `The approval is ${status}: only a pending approval can be decided.`);
}

export function selfApprovalForbidden(): DomainError {
  return new DomainError('forbidden', 'SELF_APPROVAL_FORBIDDEN', 'Nobody may decide a call they made themselves.');
}

export function notAnApprover(): DomainError {
  return new DomainError('forbidden', 'APPROVAL_NOT_ALLOWED', 'You are not one of the approvers of this call: the approval interceptor names the roles and principals that are.');
}

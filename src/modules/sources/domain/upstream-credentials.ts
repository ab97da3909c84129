/**
 * Ports of per-user upstream credentials: one ModeCredentials per mode (user-secret, oauth,
 * token-exchange) applies the calling principal's own credential to a source's target.
 */
import type { Principal } from '../../../shared/principal/principal.js';
import type { UpstreamAuth, UpstreamAuthMode } from './upstream-auth.js';
import type { UpstreamTarget } from './upstream.js';

export type CredentialRequiredCode = 'UPSTREAM_CREDENTIAL_REQUIRED' | 'UPSTREAM_CONSENT_REQUIRED';

export type CredentialOutcome =
  /** The target with the principal's credential applied, its poolKey set and its secrets extended. */
  | { kind: 'ready'; target: UpstreamTarget }
  | { kind: 'required'; code: CredentialRequiredCode; message: string; missing?: string[]; connectUrl?: string };

export interface CredentialRequest {
  /** As resolved for the source (shared parts rendered). */
  target: UpstreamTarget;
  /** Never 'shared'. */
  auth: UpstreamAuth;
  /** The caller (or the discovery principal). */
  principal: Principal;
  /** The caller's own bearer token, for token exchange (never sent upstream). */
  callerToken?: string;
}

/** One implementation per mode; the dispatcher (UpstreamCredentials) picks by auth.mode. */
export abstract class ModeCredentials {
  abstract readonly mode: Exclude<UpstreamAuthMode, 'shared'>;
  abstract forCall(request: CredentialRequest): Promise<CredentialOutcome>;
  /** The upstream answered 401 with this credential: refresh (oauth), re-exchange, or say it is required. */
  abstract afterUnauthorized(request: CredentialRequest): Promise<CredentialOutcome>;
}

/** The pool of a principal's own connections to a source. */
export function principalPoolKey(sourceId: string, principalId: string): string {
  return `${sourceId}#${principalId}`;
}

import type { Principal } from '../../../shared/principal/principal.js';
import type { UpstreamAuth, UpstreamAuthMode } from './upstream-auth.js';
import type { UpstreamTarget } from './upstream.js';

export type CredentialOutcome =
  | { kind: 'ready'; target: UpstreamTarget }     // target with the principal's credential applied, poolKey set, secrets extended
  | { kind: 'required'; code: 'UPSTREAM_CREDENTIAL_REQUIRED' | 'UPSTREAM_CONSENT_REQUIRED';
      message: string; missing?: string[]; connectUrl?: string };

export interface CredentialRequest {
  target: UpstreamTarget;          // as resolved for the source (shared parts rendered)
  auth: UpstreamAuth;              // not 'shared'
  principal: Principal;            // the caller (or the discovery principal)
  /** The caller's own bearer token, for token exchange (never sent upstream). */
  callerToken?: string;
}

/** One implementation per mode; the dispatcher picks by auth.mode. */
export abstract class ModeCredentials {
  abstract readonly mode: Exclude<UpstreamAuthMode, 'shared'>;
  abstract forCall(request: CredentialRequest): Promise<CredentialOutcome>;
  /** The upstream answered 401 with this credential: refresh (oauth), re-exchange, or say it is required. */
  abstract afterUnauthorized(request: CredentialRequest): Promise<CredentialOutcome>;
}

/** The Nest multi-provider token under which each module adds its ModeCredentials. */
export const MODE_CREDENTIALS = Symbol('MODE_CREDENTIALS');

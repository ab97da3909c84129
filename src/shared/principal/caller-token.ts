import type { Principal } from './principal.js';

/**
 * The bearer token a principal signed in with (an OIDC access or ID token), for token exchange
 * (RFC 8693) only. Kept beside the principal object, never on it, so that no serialisation of a
 * principal (a record, a log line, an audit event, a JSON answer) can ever carry it.
 */
const tokens = new WeakMap<Principal, string>();

export function rememberCallerToken(principal: Principal, token: string): void {
  tokens.set(principal, token);
}

export function callerTokenOf(principal: Principal): string | undefined {
  return tokens.get(principal);
}

/** `derived` (a copy of `principal` with a member changed) signed in with the same token. */
export function carryCallerToken<P extends Principal>(principal: Principal, derived: P): P {
  const token = tokens.get(principal);
  if (token !== undefined) tokens.set(derived, token);
  return derived;
}

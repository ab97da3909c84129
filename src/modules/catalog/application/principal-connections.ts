import type { Principal } from '../../../shared/principal/principal.js';
import type { MissingConnections } from '../domain/connection-notes.js';

/**
 * Port: which of some sources a principal cannot call yet for want of its own credential (a
 * connection, its own secret values, an OIDC sign-in for token exchange). Asked once per listing
 * with the sources of the tools listed, answered from one read of the principal's connections and
 * secrets; a source that authenticates upstream with a shared credential is never missing.
 */
export abstract class PrincipalConnections {
  abstract missingFor(principal: Principal, sourceIds: readonly string[]): Promise<MissingConnections>;
}

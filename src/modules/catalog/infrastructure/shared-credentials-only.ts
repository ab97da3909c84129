import { PrincipalConnections } from '../application/principal-connections.js';
import { NO_MISSING_CONNECTIONS, type MissingConnections } from '../domain/connection-notes.js';

/**
 * PrincipalConnections while every source authenticates upstream with its shared credential:
 * nobody lacks anything, and nothing is read. SqlPrincipalConnections takes its place once sources
 * carry `upstream_auth` and the per-user credential tables exist.
 */
export class SharedCredentialsOnly extends PrincipalConnections {
  async missingFor(): Promise<MissingConnections> {
    return NO_MISSING_CONNECTIONS;
  }
}

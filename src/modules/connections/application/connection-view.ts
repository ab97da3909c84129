import { connectionStatus, type ConnectionStatus, type UpstreamConnection } from '../domain/upstream-connection.js';

/** A connection as the API shows it: never its tokens. */
export interface ConnectionView {
  source: string;
  status: ConnectionStatus;
  scopes: string[];
  expiresAt: string | null;
  connectedAt: string | null;
  refreshedAt: string | null;
}

export interface SourceConnectionView {
  principalId: string;
  principalName: string;
  status: ConnectionStatus;
  scopes: string[];
  expiresAt: string | null;
  connectedAt: string;
}

export function connectionView(source: string, connection: UpstreamConnection | undefined, now: Date): ConnectionView {
  if (!connection) return { source, status: 'not_connected', scopes: [], expiresAt: null, connectedAt: null, refreshedAt: null };
  return {
    source,
    status: connectionStatus(connection, now),
    scopes: connection.scopes,
    expiresAt: connection.expiresAt?.toISOString() ?? null,
    connectedAt: connection.connectedAt.toISOString(),
    refreshedAt: connection.refreshedAt?.toISOString() ?? null,
  };
}

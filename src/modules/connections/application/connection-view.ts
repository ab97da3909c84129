import type { UpstreamAuthMode } from '../../sources/domain/upstream-auth.js';
import { connectionStatus, type ConnectionStatus, type UpstreamConnection } from '../domain/upstream-connection.js';

/** A connection as the API shows it: never its tokens. */
export interface ConnectionView {
  source: string;
  /** How the source signs in per user: only an `oauth` source is connected to; the others take one's own secrets or identity. */
  mode: Exclude<UpstreamAuthMode, 'shared'>;
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

export function connectionView({ name: source, mode }: { name: string; mode: ConnectionView['mode'] }, connection: UpstreamConnection | undefined, now: Date): ConnectionView {
  if (!connection) return { source, mode, status: 'not_connected', scopes: [], expiresAt: null, connectedAt: null, refreshedAt: null };
  return {
    source,
    mode,
    status: connectionStatus(connection, now),
    scopes: connection.scopes,
    expiresAt: connection.expiresAt?.toISOString() ?? null,
    connectedAt: connection.connectedAt.toISOString(),
    refreshedAt: connection.refreshedAt?.toISOString() ?? null,
  };
}

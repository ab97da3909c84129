/** What an authorization server granted a principal for one source. Plain values; sealed at rest. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  tokenType: string;
}

/** A principal's standing authorization to reach one source upstream. */
export interface UpstreamConnection {
  principalId: string;
  principalName: string;
  sourceId: string;
  tokens: TokenSet;
  scopes: string[];
  /** When the access token ends (absent: the server did not say). */
  expiresAt: Date | null;
  connectedAt: Date;
  refreshedAt: Date | null;
  /** Why the last refresh failed; cleared by the next grant. */
  lastError: string | null;
}

export type ConnectionStatus = 'connected' | 'expired' | 'refresh_failed' | 'not_connected';

/** A token is refreshed this long before it ends, so a call never starts with one about to lapse. */
export const REFRESH_MARGIN_MS = 60_000;

export function connectionStatus(connection: UpstreamConnection, now: Date): ConnectionStatus {
  if (connection.lastError !== null) return 'refresh_failed';
  if (connection.expiresAt !== null && connection.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'connected';
}

/** Whether the access token ends within the margin (and a refresh token could renew it). */
export function needsRefresh(connection: UpstreamConnection, now: Date): boolean {
  return connection.expiresAt !== null && connection.expiresAt.getTime() - now.getTime() <= REFRESH_MARGIN_MS;
}

/** The tokens an authorization server answered, as Toolplane keeps them. */
export interface GrantedTokens {
  accessToken: string;
  refreshToken?: string;
  tokenType: string;
  expiresInSeconds?: number;
  scopes: string[];
}

/** A connection made of a grant: a refresh that answers no new refresh token keeps the old one (RFC 6749 §6). */
export function grantedConnection(
  grant: GrantedTokens,
  base: { principalId: string; principalName: string; sourceId: string; connectedAt: Date; previousRefreshToken?: string; previousScopes?: string[] },
  now: Date,
): UpstreamConnection {
  const refreshToken = grant.refreshToken ?? base.previousRefreshToken;
  return {
    principalId: base.principalId,
    principalName: base.principalName,
    sourceId: base.sourceId,
    tokens: { accessToken: grant.accessToken, tokenType: grant.tokenType, ...(refreshToken ? { refreshToken } : {}) },
    scopes: grant.scopes.length > 0 ? grant.scopes : (base.previousScopes ?? []),
    expiresAt: grant.expiresInSeconds !== undefined ? new Date(now.getTime() + grant.expiresInSeconds * 1000) : null,
    connectedAt: base.connectedAt,
    refreshedAt: base.connectedAt.getTime() === now.getTime() ? null : now,
    lastError: null,
  };
}

import type { GrantedTokens } from './upstream-connection.js';
import type { OAuthSource } from './oauth-source.js';

export type ClientRegistration = 'pre-registered' | 'dynamic' | 'metadata-document';
export type TokenEndpointAuth = 'none' | 'client_secret_basic' | 'client_secret_post';

/** Toolplane as a client of one source's authorization server. */
export interface RegisteredClient {
  sourceId: string;
  issuer: string;
  /** The authorization server's metadata as discovered (RFC 8414 or OpenID discovery). */
  metadata: Record<string, unknown>;
  /** The protected resource (RFC 8707 `resource`): the upstream's identifier from its metadata. */
  resource: string;
  clientId: string;
  /** The client secret itself (held in memory; sealed at rest when registered dynamically). */
  clientSecret?: string;
  authMethod: TokenEndpointAuth;
  registration: ClientRegistration;
  redirectUri: string;
  /** What the client was made for (the source's URL and OAuth settings): another asks for a new one. */
  settingsHash: string;
  /** Scopes to ask for when the source names none: what the resource metadata offers. */
  defaultScopes: string[];
  createdAt: Date;
}

/** Port: speaks OAuth to a source's authorization server. Every failure is an Error whose message names what went wrong, never a token. */
export abstract class AuthorizationServers {
  /** Discovers the resource and its authorization server, and registers (or names) Toolplane's client. */
  abstract prepare(source: OAuthSource, redirectUri: string, settingsHash: string): Promise<RegisteredClient>;
  abstract authorizationUrl(client: RegisteredClient, request: { state: string; codeChallenge: string; scopes: string[] }): URL;
  /** Exchanges the code in the callback URL (checked against `state`, and `iss` when sent). */
  abstract exchangeCode(client: RegisteredClient, callback: URL, state: string, codeVerifier: string): Promise<GrantedTokens>;
  abstract refresh(client: RegisteredClient, refreshToken: string): Promise<GrantedTokens>;
  /** Revokes a token (RFC 7009); false when the server offers no revocation. */
  abstract revoke(client: RegisteredClient, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean>;
}

/** Port: Toolplane's client at each source's authorization server, the secret sealed at rest. */
export abstract class RegisteredClients {
  abstract find(sourceId: string): Promise<RegisteredClient | undefined>;
  abstract save(client: RegisteredClient): Promise<void>;
}

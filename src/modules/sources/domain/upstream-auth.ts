export type UpstreamAuthMode = 'shared' | 'user-secret' | 'oauth' | 'token-exchange';
export type UpstreamAuth =
  | { mode: 'shared' }
  | { mode: 'user-secret' }                    // values come from `${user-secret:NAME}` references in env/headers
  | { mode: 'oauth'; oauth: OAuthSettings }
  | { mode: 'token-exchange'; tokenExchange: TokenExchangeSettings };
export interface OAuthSettings {
  /** Pre-registered client: its id, and a `${secret:NAME}` reference to its secret (absent: public client). */
  clientId?: string;
  clientSecret?: string;           // must be a `${secret:NAME}` reference, never a literal
  /** A client ID metadata document URL (https) to use as client_id when the AS supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for (absent: the PRM's scopes_supported, or none). */
  scopes?: string[];
  /** Authorization server issuer to use when the upstream's PRM lists several (absent: first). */
  authorizationServer?: string;
}
export interface TokenExchangeSettings {
  /** The identity provider's token endpoint (https, or http on loopback). */
  tokenEndpoint: string;
  /** RFC 8693 `audience` and/or `resource` for the upstream. At least one. */
  audience?: string;
  resource?: string;
  scopes?: string[];
  clientId: string;
  clientSecret?: string;           // `${secret:NAME}` reference
}

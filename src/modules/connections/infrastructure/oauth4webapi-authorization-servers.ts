import * as oauth from 'oauth4webapi';
import { isRecord } from '../../../shared/is-record.js';
import { resourceMetadataOf } from '../domain/bearer-challenge.js';
import { isScope, readProtectedResourceMetadata, type ProtectedResourceMetadata } from '../domain/protected-resource-metadata.js';
import { AuthorizationServers, type RegisteredClient, type TokenEndpointAuth } from '../domain/authorization-server.js';
import type { OAuthSource } from '../domain/oauth-source.js';
import type { GrantedTokens } from '../domain/upstream-connection.js';

/** What the adapter needs besides the source: its pre-registered client's secret, revealed. */
export type SecretOf = (reference: string) => Promise<string | undefined>;

/**
 * OAuth with oauth4webapi over `fetch` (the source host policy's, see policyFetch): the upstream's
 * protected resource metadata (RFC 9728: from its 401 challenge, else the well-known locations),
 * its authorization server's metadata (RFC 8414, else OpenID discovery), the client (pre-registered,
 * a client ID metadata document, or dynamic registration per RFC 7591), the authorization code grant
 * with PKCE S256 and `resource` (RFC 8707), refresh and revocation (RFC 7009).
 */
export class Oauth4webapiAuthorizationServers extends AuthorizationServers {
  constructor(
    private readonly fetch: typeof globalThis.fetch,
    private readonly secretOf: SecretOf,
    private readonly clientName: string,
  ) {
    super();
  }

  private get options() {
    // Every URL is checked by the fetch itself (https, or http on loopback, and the host policy).
    return { [oauth.customFetch]: this.fetch, [oauth.allowInsecureRequests]: true } as const;
  }

  async prepare(source: OAuthSource, redirectUri: string, settingsHash: string): Promise<RegisteredClient> {
    const settings = source.auth.oauth;
    const resource = await this.protectedResource(new URL(source.url));
    const issuer = settings.authorizationServer ?? resource.authorizationServers[0]!;
    if (settings.authorizationServer && !resource.authorizationServers.includes(settings.authorizationServer)) {
      throw new Error(`the upstream does not name ${settings.authorizationServer} among its authorization servers (${resource.authorizationServers.join(', ')})`);
    }
    const as = await this.authorizationServer(new URL(issuer));
    const methods = as.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes('S256')) throw new Error(`the authorization server ${issuer} does not offer PKCE with S256`);
    const authMethods = Array.isArray(as.token_endpoint_auth_methods_supported) ? as.token_endpoint_auth_methods_supported : ['client_secret_basic'];
    const secretMethod: TokenEndpointAuth = authMethods.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post';
    const base = { sourceId: source.id, issuer: as.issuer, metadata: { ...as } as Record<string, unknown>, resource: resource.resource, redirectUri, settingsHash, defaultScopes: resource.scopesSupported, createdAt: new Date() };

    if (settings.clientId) {
      const clientSecret = settings.clientSecret ? await this.secretOf(settings.clientSecret) : undefined;
      if (settings.clientSecret && clientSecret === undefined) throw new Error(`the client secret ${settings.clientSecret} is not stored`);
      return { ...base, clientId: settings.clientId, ...(clientSecret ? { clientSecret } : {}), authMethod: clientSecret ? secretMethod : 'none', registration: 'pre-registered' };
    }
    if (settings.clientMetadataUrl && (as as Record<string, unknown>).client_id_metadata_document_supported === true) {
      return { ...base, clientId: settings.clientMetadataUrl, authMethod: 'none', registration: 'metadata-document' };
    }
    if (!as.registration_endpoint) throw new Error(`the authorization server ${issuer} offers no client registration: set upstreamAuth.oauth.clientId`);
    const wanted: TokenEndpointAuth = authMethods.includes('client_secret_basic') || authMethods.includes('client_secret_post') ? secretMethod : 'none';
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: [redirectUri], client_name: this.clientName, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: wanted },
        this.options,
      ),
    ).catch((error: unknown) => {
      throw new Error(`client registration at ${issuer} failed: ${describe(error)}`);
    });
    const clientSecret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
    const granted = typeof registered.token_endpoint_auth_method === 'string' ? registered.token_endpoint_auth_method : wanted;
    const authMethod: TokenEndpointAuth = clientSecret ? (granted === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic') : 'none';
    return { ...base, clientId: registered.client_id, ...(clientSecret ? { clientSecret } : {}), authMethod, registration: 'dynamic' };
  }

  authorizationUrl(client: RegisteredClient, request: { state: string; codeChallenge: string; scopes: string[] }): URL {
    const endpoint = client.metadata.authorization_endpoint;
    if (typeof endpoint !== 'string') throw new Error(`the authorization server ${client.issuer} names no authorization_endpoint`);
    const url = new URL(endpoint);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      state: request.state,
      resource: client.resource,
      ...(request.scopes.length > 0 ? { scope: request.scopes.join(' ') } : {}),
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url;
  }

  async exchangeCode(client: RegisteredClient, callback: URL, state: string, codeVerifier: string): Promise<GrantedTokens> {
    const { as, oauthClient, auth } = this.parts(client);
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, oauthClient, callback, state);
    } catch (error) {
      throw new Error(`the authorization server refused: ${describe(error)}`, { cause: error });
    }
    const response = await oauth.authorizationCodeGrantRequest(as, oauthClient, auth, params, client.redirectUri, codeVerifier, {
      ...this.options,
      additionalParameters: { resource: client.resource },
    });
    const answer = await oauth.processAuthorizationCodeResponse(as, oauthClient, response).catch((error: unknown) => {
      throw new Error(`the token request failed: ${describe(error)}`);
    });
    return granted(answer);
  }

  async refresh(client: RegisteredClient, refreshToken: string): Promise<GrantedTokens> {
    const { as, oauthClient, auth } = this.parts(client);
    const response = await oauth.refreshTokenGrantRequest(as, oauthClient, auth, refreshToken, { ...this.options, additionalParameters: { resource: client.resource } });
    const answer = await oauth.processRefreshTokenResponse(as, oauthClient, response).catch((error: unknown) => {
      throw new Error(`the refresh failed: ${describe(error)}`);
    });
    return granted(answer);
  }

  async revoke(client: RegisteredClient, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean> {
    const { as, oauthClient, auth } = this.parts(client);
    if (!as.revocation_endpoint) return false;
    const response = await oauth.revocationRequest(as, oauthClient, auth, token, { ...this.options, additionalParameters: { token_type_hint: hint } });
    await oauth.processRevocationResponse(response).catch((error: unknown) => {
      throw new Error(`the revocation failed: ${describe(error)}`);
    });
    return true;
  }

  private parts(client: RegisteredClient) {
    const as = client.metadata as unknown as oauth.AuthorizationServer;
    const oauthClient: oauth.Client = { client_id: client.clientId };
    const auth =
      client.authMethod === 'client_secret_basic' ? oauth.ClientSecretBasic(client.clientSecret ?? '') : client.authMethod === 'client_secret_post' ? oauth.ClientSecretPost(client.clientSecret ?? '') : oauth.None();
    return { as, oauthClient, auth };
  }

  /** The upstream's protected resource metadata: where its 401 says, else the well-known locations (RFC 9728 §3.1). */
  private async protectedResource(upstream: URL): Promise<ProtectedResourceMetadata> {
    const candidates: string[] = [];
    const probe = await this.fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: this.clientName, version: '1' } } }),
    }).catch((error: unknown) => {
      throw new Error(`the upstream could not be reached: ${describe(error)}`);
    });
    if (probe.status === 401) {
      const fromChallenge = resourceMetadataOf(probe.headers.get('www-authenticate'));
      if (fromChallenge) candidates.push(fromChallenge);
    }
    const path = upstream.pathname === '/' ? '' : upstream.pathname.replace(/\/$/, '');
    candidates.push(`${upstream.origin}/.well-known/oauth-protected-resource${path}`, `${upstream.origin}/.well-known/oauth-protected-resource`);
    const problems: string[] = [];
    for (const candidate of [...new Set(candidates)]) {
      let url: URL;
      try {
        url = new URL(candidate);
      } catch {
        problems.push(`${candidate.slice(0, 200)} is not a URL`);
        continue;
      }
      const response = await this.fetch(url, { headers: { accept: 'application/json' } }).catch((error: unknown) => error as Error);
      if (response instanceof Error) {
        problems.push(`${url.href}: ${describe(response)}`);
        continue;
      }
      if (!response.ok) {
        problems.push(`${url.href} answered ${response.status}`);
        continue;
      }
      const body: unknown = await response.json().catch(() => undefined);
      const read = readProtectedResourceMetadata(body, upstream);
      if ('metadata' in read) return read.metadata;
      problems.push(`${url.href}: ${read.problems.join('; ')}`);
    }
    throw new Error(`no protected resource metadata for ${upstream.origin}: ${problems.join('; ')}`);
  }

  /** The authorization server's metadata: RFC 8414 first, then OpenID discovery. */
  private async authorizationServer(issuer: URL): Promise<oauth.AuthorizationServer> {
    const problems: string[] = [];
    for (const algorithm of ['oauth2', 'oidc'] as const) {
      try {
        const response = await oauth.discoveryRequest(issuer, { ...this.options, algorithm });
        return await oauth.processDiscoveryResponse(issuer, response);
      } catch (error) {
        problems.push(`${algorithm === 'oauth2' ? 'RFC 8414' : 'OpenID discovery'}: ${describe(error)}`);
      }
    }
    throw new Error(`no authorization server metadata for ${issuer.href}: ${problems.join('; ')}`);
  }
}

const MAX_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

/** What Toolplane keeps of a token response: Bearer only, scopes that are scope tokens, a bounded lifetime. */
export function granted(answer: oauth.TokenEndpointResponse): GrantedTokens {
  if (answer.token_type.toLowerCase() !== 'bearer') throw new Error(`the authorization server issued a ${answer.token_type.slice(0, 40)} token; only Bearer tokens are supported`);
  const scopes = typeof answer.scope === 'string' ? answer.scope.split(' ').filter(isScope) : [];
  return {
    accessToken: answer.access_token,
    ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
    tokenType: 'Bearer',
    // A lifetime past ten years is taken as ten years (a date must stay a date).
    ...(typeof answer.expires_in === 'number' && Number.isFinite(answer.expires_in) && answer.expires_in >= 0 ? { expiresInSeconds: Math.min(answer.expires_in, MAX_LIFETIME_SECONDS) } : {}),
    scopes,
  };
}

/** What went wrong, in words safe to store and show: an OAuth error code and description (bounded), never a body. */
function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    const description = error.error_description ? `: ${error.error_description.slice(0, 200)}` : '';
    return `${error.error.slice(0, 100)}${description}`;
  }
  if (error instanceof Error) {
    const cause = isRecord(error.cause) && typeof error.cause.code === 'string' ? ` (${error.cause.code})` : '';
    return `${error.message.slice(0, 300)}${cause}`;
  }
  return 'unknown error';
}

import * as oauth from 'oauth4webapi';
import { ACCESS_TOKEN_TYPE, ExchangeRefused, ExchangeUnavailable, TOKEN_EXCHANGE_GRANT, TokenEndpoint, type ExchangeAnswer, type ExchangeRequest } from './token-endpoint.js';

/** An OAuth error or description from the identity provider is foreign text: short, one line. */
const MAX_ERROR_CHARS = 200;
const TIMEOUT_MS = 10_000;

/** RFC 8693 through oauth4webapi's generic grant: client_secret_basic with a secret, else a public client. */
export class OAuthTokenEndpoint extends TokenEndpoint {
  async exchange(request: ExchangeRequest): Promise<ExchangeAnswer> {
    const { settings } = request;
    const endpoint = new URL(settings.tokenEndpoint);
    // Only the token endpoint is used: no discovery, the issuer is not checked here.
    const as: oauth.AuthorizationServer = { issuer: endpoint.origin, token_endpoint: endpoint.href };
    const client: oauth.Client = { client_id: settings.clientId };
    const auth = request.clientSecret !== undefined ? oauth.ClientSecretBasic(request.clientSecret) : oauth.None();
    const parameters = new URLSearchParams({
      subject_token: request.subjectToken,
      subject_token_type: request.subjectTokenType,
      requested_token_type: ACCESS_TOKEN_TYPE,
    });
    if (settings.audience) parameters.set('audience', settings.audience);
    if (settings.resource) parameters.set('resource', settings.resource);
    if (settings.scopes?.length) parameters.set('scope', settings.scopes.join(' '));
    let response: Response;
    try {
      response = await oauth.genericTokenEndpointRequest(as, client, auth, TOKEN_EXCHANGE_GRANT, parameters, {
        // http is accepted on loopback only (the source's checks); https elsewhere.
        [oauth.allowInsecureRequests]: endpoint.protocol === 'http:',
        signal: request.signal ?? AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new ExchangeUnavailable(`the token endpoint could not be reached (${clip(error instanceof Error ? error.message : String(error))})`);
    }
    const refused = await oauthError(response);
    if (refused) throw refused;
    try {
      const answer = await oauth.processGenericTokenEndpointResponse(as, client, response);
      return { accessToken: answer.access_token, ...(typeof answer.expires_in === 'number' ? { expiresIn: answer.expires_in } : {}) };
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) throw new ExchangeRefused(clip(error.error), error.error_description ? clip(error.error_description) : undefined);
      throw new ExchangeUnavailable(`the token endpoint answered HTTP ${response.status} without a usable token response`);
    }
  }
}

/** An error answer of RFC 6749 (5.2), 401 with a challenge included (invalid_client). */
async function oauthError(response: Response): Promise<ExchangeRefused | undefined> {
  if (response.status !== 400 && response.status !== 401) return undefined;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
  if (typeof body?.error !== 'string') return undefined;
  return new ExchangeRefused(clip(body.error), typeof body.error_description === 'string' ? clip(body.error_description) : undefined);
}

function clip(text: string): string {
  return text.replace(/\p{Cc}+/gu, ' ').slice(0, MAX_ERROR_CHARS);
}

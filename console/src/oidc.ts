/**
 * Sign-in with the configured OpenID Connect issuer: authorization code with PKCE (S256), as a
 * public client. The access token is then used as the bearer credential, like an API key.
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  scopes: string;
  resource: string;
}

const PENDING = 'toolplane.oidc';

interface Endpoints {
  authorization_endpoint: string;
  token_endpoint: string;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomText(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function endpoints(issuer: string): Promise<Endpoints> {
  const base = issuer.replace(/\/+$/, '');
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    const response = await fetch(base + path, { credentials: 'omit' }).catch(() => null);
    if (response?.ok) return (await response.json()) as Endpoints;
  }
  throw new Error(`The issuer ${issuer} publishes no discovery document.`);
}

const redirectUri = () => `${location.origin}/console/`;

export async function startOidcSignIn(settings: OidcSettings): Promise<void> {
  const found = await endpoints(settings.issuer);
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, tokenEndpoint: found.token_endpoint }));
  const url = new URL(found.authorization_endpoint);
  const params = { response_type: 'code', client_id: settings.clientId, redirect_uri: redirectUri(), scope: settings.scopes, state, code_challenge: challenge, code_challenge_method: 'S256', resource: settings.resource };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  location.assign(url.toString());
}

/** On the way back from the issuer: the code exchanged for an access token (null: not a callback). */
export async function finishOidcSignIn(settings: OidcSettings): Promise<string | null> {
  const search = new URLSearchParams(location.search);
  const code = search.get('code');
  const error = search.get('error');
  if (!code && !error) return null;
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as { verifier: string; state: string; tokenEndpoint: string } | null;
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, '', '/console/');
  if (error) throw new Error(`The issuer refused the sign-in: ${search.get('error_description') ?? error}`);
  if (!pending || pending.state !== search.get('state')) throw new Error('The sign-in answer does not match the sign-in this tab started; try again.');
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri(), client_id: settings.clientId, code_verifier: pending.verifier, resource: settings.resource });
  const response = await fetch(pending.tokenEndpoint, { method: 'POST', body, credentials: 'omit' });
  const answer = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (!response.ok || !answer.access_token) throw new Error(`The issuer gave no token: ${answer.error_description ?? answer.error ?? response.status}`);
  return answer.access_token;
}

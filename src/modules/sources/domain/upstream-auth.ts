/**
 * How a source authenticates to its upstream. `shared` (or none) is one credential for every
 * caller, from the source's own env and headers; the others are per calling principal.
 */
import type { ProblemDetail } from '../../../shared/domain-error.js';
import type { PrincipalKind } from '../../../shared/principal/principal.js';
import { parseRemoteUrl } from './remote-url.js';
import type { TransportKind } from './source-settings.js';
import { parseTemplate } from './value-template.js';

export type UpstreamAuthMode = 'shared' | 'user-secret' | 'oauth' | 'token-exchange';
export const UPSTREAM_AUTH_MODES: readonly UpstreamAuthMode[] = ['shared', 'user-secret', 'oauth', 'token-exchange'];

export type UpstreamAuth =
  | { mode: 'shared' }
  /** Values come from `${user-secret:NAME}` references in env or headers. */
  | { mode: 'user-secret' }
  | { mode: 'oauth'; oauth: OAuthSettings }
  | { mode: 'token-exchange'; tokenExchange: TokenExchangeSettings };

export interface OAuthSettings {
  /** Pre-registered client: its id, and a `${secret:NAME}` reference to its secret (absent: public client). */
  clientId?: string;
  /** Must be a `${secret:NAME}` reference, never a literal. */
  clientSecret?: string;
  /** A client ID metadata document URL (https) to use as client_id when the AS supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for (absent: the PRM's scopes_supported, or none). */
  scopes?: string[];
  /** Authorization server issuer to use when the upstream's PRM lists several (absent: first). */
  authorizationServer?: string;
  /** A `${secret:NAME}` reference to a bearer token (a service account's) that lists the tools: discovery uses it instead of waiting for a connection. */
  discoveryToken?: string;
}

export interface TokenExchangeSettings {
  /** The identity provider's token endpoint (https, or http on loopback). */
  tokenEndpoint: string;
  /** RFC 8693 `audience` and/or `resource` for the upstream. At least one. */
  audience?: string;
  resource?: string;
  scopes?: string[];
  clientId: string;
  /** A `${secret:NAME}` reference. */
  clientSecret?: string;
  /** As OAuthSettings.discoveryToken: a bearer token that lists the tools, used for discovery only. */
  discoveryToken?: string;
}

/** The principal whose credential discovers a per-user source's tools: the one that registered it. */
export interface DiscoveryPrincipal {
  id: string;
  name: string;
  kind?: PrincipalKind;
}

/** Whether calls of a source carry a credential of their caller's own. */
export function isPerPrincipal(auth: UpstreamAuth | null | undefined): auth is Exclude<UpstreamAuth, { mode: 'shared' }> {
  return auth != null && auth.mode !== 'shared';
}

const REMOTE: readonly TransportKind[] = ['streamable-http', 'sse'];
const MAX_SCOPES = 64;
const MAX_TEXT = 2048;
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,256}$/;

export interface UpstreamAuthCheck {
  problems: ProblemDetail[];
  /** The names of `${secret:…}` references the settings make (their existence is checked by the caller, which has the store). */
  secretReferences: { path: string; name: string }[];
  /** The settings as stored: only known fields, in a stable shape. */
  auth?: UpstreamAuth;
}

/**
 * Checks `upstreamAuth` as given (foreign JSON) against the source's transport and its env and
 * header templates, every problem at once (paths `upstreamAuth.…`). `allowHttp(url)` says whether
 * a plain-http URL may be used (loopback, or what the URL policy lets through).
 */
export function checkUpstreamAuth(
  given: unknown,
  transport: TransportKind,
  templates: { env: Record<string, string>; headers: Record<string, string> },
  allowHttp: (url: URL) => boolean,
): UpstreamAuthCheck {
  const problems: ProblemDetail[] = [];
  const secretReferences: { path: string; name: string }[] = [];
  const userSecretPaths = userSecretReferencePaths(templates);
  const add = (path: string, message: string) => problems.push({ path: path ? `upstreamAuth.${path}` : 'upstreamAuth', message });

  if (given === undefined || given === null) {
    for (const path of userSecretPaths) problems.push({ path, message: 'refers to a ${user-secret:…}, which only a source with upstreamAuth mode "user-secret" may' });
    return { problems, secretReferences };
  }
  if (!isRecord(given)) {
    add('', 'must be an object such as {"mode": "shared"}');
    return { problems, secretReferences };
  }
  const mode = given.mode;
  if (typeof mode !== 'string' || !(UPSTREAM_AUTH_MODES as readonly string[]).includes(mode)) {
    add('mode', `must be one of ${UPSTREAM_AUTH_MODES.join(', ')}`);
    return { problems, secretReferences };
  }
  const allowedKeys = new Set(['mode', ...(mode === 'oauth' ? ['oauth'] : mode === 'token-exchange' ? ['tokenExchange'] : [])]);
  for (const key of Object.keys(given)) if (!allowedKeys.has(key)) add(key, `is not a setting of mode "${mode}"`);
  if ((mode === 'oauth' || mode === 'token-exchange') && !REMOTE.includes(transport)) {
    add('mode', `"${mode}" applies only to streamable-http and sse sources`);
  }
  if (mode === 'user-secret') {
    if (userSecretPaths.length === 0) {
      add('mode', `"user-secret" needs at least one \${user-secret:NAME} reference in ${transport === 'stdio' ? 'env' : 'headers'}`);
    }
  } else {
    for (const path of userSecretPaths) problems.push({ path, message: `refers to a \${user-secret:…}, which only a source with upstreamAuth mode "user-secret" may (this one is "${mode}")` });
  }

  let auth: UpstreamAuth | undefined;
  const url = (path: string, value: unknown, httpsOnly = false): string | undefined => {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT) {
      add(path, `must be an absolute URL of at most ${MAX_TEXT} characters`);
      return undefined;
    }
    const parsed = parseRemoteUrl(value);
    if ('problem' in parsed) {
      add(path, parsed.problem);
      return undefined;
    }
    if (parsed.url.protocol === 'http:' && (httpsOnly || !allowHttp(parsed.url))) {
      add(path, 'must use https (http only for a loopback address)');
      return undefined;
    }
    return parsed.url.toString();
  };
  const text = (path: string, value: unknown): string | undefined => {
    if (typeof value !== 'string' || value.trim().length === 0 || value.length > MAX_TEXT || /[\0\r\n]/.test(value)) {
      add(path, `must be a non-empty single-line string of at most ${MAX_TEXT} characters`);
      return undefined;
    }
    return value;
  };
  const secretRef = (path: string, value: unknown): string | undefined => {
    const parsed = typeof value === 'string' ? parseTemplate(value) : undefined;
    const ref = parsed?.references[0];
    if (!parsed || parsed.problems.length > 0 || parsed.hasLiteralText || parsed.references.length !== 1 || ref?.kind !== 'secret') {
      add(path, 'must be a ${secret:NAME} reference to a stored secret, never a literal');
      return undefined;
    }
    secretReferences.push({ path: `upstreamAuth.${path}`, name: ref.name });
    return value as string;
  };
  const scopes = (path: string, value: unknown): string[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length > MAX_SCOPES) {
      add(path, `must be an array of at most ${MAX_SCOPES} scopes`);
      return undefined;
    }
    value.forEach((scope, i) => {
      if (typeof scope !== 'string' || !SCOPE.test(scope)) add(`${path}[${i}]`, 'must be a scope token (printable, no spaces or quotes)');
    });
    return value as string[];
  };
  const settingsOf = (key: string, known: readonly string[]): Record<string, unknown> | undefined => {
    const settings = given[key];
    if (!isRecord(settings)) {
      add(key, 'must be an object');
      return undefined;
    }
    for (const name of Object.keys(settings)) if (!known.includes(name)) add(`${key}.${name}`, 'is not a known setting');
    return settings;
  };

  if (mode === 'shared' || mode === 'user-secret') auth = { mode };
  if (mode === 'oauth') {
    const s = settingsOf('oauth', ['clientId', 'clientSecret', 'clientMetadataUrl', 'scopes', 'authorizationServer', 'discoveryToken']);
    if (s) {
      const oauth: OAuthSettings = {};
      if (s.clientId !== undefined) oauth.clientId = text('oauth.clientId', s.clientId);
      if (s.clientSecret !== undefined) {
        oauth.clientSecret = secretRef('oauth.clientSecret', s.clientSecret);
        if (s.clientId === undefined) add('oauth.clientSecret', 'applies only with clientId');
      }
      if (s.clientMetadataUrl !== undefined) oauth.clientMetadataUrl = url('oauth.clientMetadataUrl', s.clientMetadataUrl);
      if (s.scopes !== undefined) oauth.scopes = scopes('oauth.scopes', s.scopes);
      if (s.authorizationServer !== undefined) oauth.authorizationServer = url('oauth.authorizationServer', s.authorizationServer);
      if (s.discoveryToken !== undefined) oauth.discoveryToken = secretRef('oauth.discoveryToken', s.discoveryToken);
      auth = { mode, oauth: withoutUndefined(oauth) };
    }
  }
  if (mode === 'token-exchange') {
    const s = settingsOf('tokenExchange', ['tokenEndpoint', 'audience', 'resource', 'scopes', 'clientId', 'clientSecret', 'discoveryToken']);
    if (s) {
      const tokenEndpoint = url('tokenExchange.tokenEndpoint', s.tokenEndpoint);
      const clientId = text('tokenExchange.clientId', s.clientId);
      const exchange: Partial<TokenExchangeSettings> = { tokenEndpoint, clientId };
      if (s.audience !== undefined) exchange.audience = text('tokenExchange.audience', s.audience);
      if (s.resource !== undefined) exchange.resource = url('tokenExchange.resource', s.resource);
      if (s.audience === undefined && s.resource === undefined) add('tokenExchange', 'needs audience or resource (or both)');
      if (s.scopes !== undefined) exchange.scopes = scopes('tokenExchange.scopes', s.scopes);
      if (s.clientSecret !== undefined) exchange.clientSecret = secretRef('tokenExchange.clientSecret', s.clientSecret);
      if (s.discoveryToken !== undefined) exchange.discoveryToken = secretRef('tokenExchange.discoveryToken', s.discoveryToken);
      auth = { mode, tokenExchange: withoutUndefined(exchange) as TokenExchangeSettings };
    }
  }
  return problems.length > 0 ? { problems, secretReferences } : { problems, secretReferences, auth };
}

/** The env and header paths whose templates hold a `${user-secret:NAME}` reference. */
function userSecretReferencePaths(templates: { env: Record<string, string>; headers: Record<string, string> }): string[] {
  const paths: string[] = [];
  for (const field of ['env', 'headers'] as const) {
    for (const [name, value] of Object.entries(templates[field])) {
      if (parseTemplate(value).references.some((ref) => ref.kind === 'user-secret')) paths.push(`${field}.${name}`);
    }
  }
  return paths;
}

/** The names of the `${user-secret:NAME}` references in a source's env and headers, each once, sorted. */
export function userSecretNames(templates: { env: Record<string, string>; headers: Record<string, string> }): string[] {
  const names = new Set<string>();
  for (const value of [...Object.values(templates.env), ...Object.values(templates.headers)]) {
    for (const ref of parseTemplate(value).references) if (ref.kind === 'user-secret') names.add(ref.name);
  }
  return [...names].sort();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

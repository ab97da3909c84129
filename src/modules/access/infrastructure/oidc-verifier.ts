import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { OidcSettings } from '../../../config/app-config.js';
import { DomainError } from '../../../shared/domain-error.js';
import { isRole, type Role } from '../../../shared/principal/permissions.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { rememberCallerToken } from '../../../shared/principal/caller-token.js';
import { MAX_SCOPE_PATTERNS, SCOPE_PATTERN } from '../domain/tool-scope.js';
import { type ToolScope } from '../../../shared/principal/tool-scope.js';

/** Asymmetric algorithms only: a symmetric one (HS256) would let whoever knows the key mint tokens. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** The scope that names a role: `toolplane:agent`, … */
export const ROLE_SCOPE_PREFIX = 'toolplane:';

/** A compact JWS: three base64url parts. API keys (`tp_…`) never look like one. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/**
 * Verifies JWT bearer tokens as MCP's authorization spec asks of a resource server: signed by the
 * issuer's key (JWKS, cached and fetched again when a token names an unknown `kid`), an
 * asymmetric algorithm, `iss` exactly the issuer, `aud` bound to Toolplane's canonical resource
 * URI, `exp`/`nbf` within the allowed clock skew. Roles and tool restrictions come from claims.
 * The token itself stays beside the principal (callerTokenOf), for token exchange upstream.
 */
export class OidcVerifier {
  private keys?: JWTVerifyGetKey;

  constructor(private readonly settings: OidcSettings) {}

  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keySet(), {
        issuer: this.settings.issuer,
        algorithms: ALGORITHMS,
        clockTolerance: this.settings.clockSkewSeconds,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      throw refusal(error);
    }
    if (!audienceFits(payload.aud, this.settings.audience)) {
      throw new DomainError('unauthenticated', 'TOKEN_WRONG_AUDIENCE', `The token is not for this resource (${this.settings.audience}).`);
    }
    const principal = this.principalOf(payload);
    rememberCallerToken(principal, token);
    return principal;
  }

  private principalOf(payload: JWTPayload): Principal {
    const roles = rolesOf(claim(payload, this.settings.rolesClaim), payload.scope);
    const sources = patterns(claim(payload, this.settings.allowedSourcesClaim));
    const tools = patterns(claim(payload, this.settings.allowedToolsClaim));
    const groups = patterns(claim(payload, this.settings.allowedGroupsClaim));
    const scope: ToolScope = { ...(sources ? { sources } : {}), ...(tools ? { tools } : {}), ...(groups ? { groups } : {}) };
    const name = [payload.name, payload.preferred_username, payload.email, payload.sub].find((value) => typeof value === 'string' && value.length > 0) as string;
    return {
      // The same person from another issuer is another principal.
      id: `oidc:${payload.sub}@${new URL(this.settings.issuer).host}`.slice(0, 200),
      name: name.slice(0, 200),
      kind: 'oidc',
      roles,
      ...(sources || tools || groups ? { scope } : {}),
    };
  }

  private async keySet(): Promise<JWTVerifyGetKey> {
    if (this.keys) return this.keys;
    const url = this.settings.jwksUrl ?? (await discoverJwksUrl(this.settings.issuer));
    // jose caches the set, and fetches it again for an unknown `kid` (at most once per cooldown).
    this.keys = createRemoteJWKSet(new URL(url), { cooldownDuration: this.settings.jwksCooldownSeconds * 1000, cacheMaxAge: 10 * 60_000, timeoutDuration: 5_000 });
    return this.keys;
  }
}

async function discoverJwksUrl(issuer: string): Promise<string> {
  const base = issuer.replace(/\/+$/, '');
  for (const document of [`${base}/.well-known/openid-configuration`, `${base}/.well-known/oauth-authorization-server`]) {
    try {
      const response = await fetch(document, { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) continue;
      const metadata = (await response.json()) as { jwks_uri?: unknown };
      if (typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
    } catch {
      // try the next document
    }
  }
  throw new DomainError('unavailable', 'OIDC_UNAVAILABLE', `The issuer's signing keys could not be found (${base}); set TOOLPLANE_OIDC_JWKS_URL.`);
}

/** `aud` is the resource URI or one under it (an MCP endpoint), as a string or in a list. */
function audienceFits(aud: JWTPayload['aud'], audience: string): boolean {
  const values = Array.isArray(aud) ? aud : aud === undefined ? [] : [aud];
  return values.some((value) => value === audience || value.replace(/\/+$/, '') === audience || value.startsWith(`${audience}/`));
}

function claim(payload: JWTPayload, path: string): unknown {
  let value: unknown = payload;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Role names from the roles claim (`agent` or `toolplane:agent`) and from `scope` (`toolplane:agent`). */
function rolesOf(claimed: unknown, scope: unknown): Role[] {
  const names = [
    ...(Array.isArray(claimed) ? claimed : typeof claimed === 'string' ? claimed.split(' ') : []),
    ...(typeof scope === 'string' ? scope.split(' ').filter((s) => s.startsWith(ROLE_SCOPE_PREFIX)) : []),
  ];
  const roles = names.filter((name): name is string => typeof name === 'string').map((name) => (name.startsWith(ROLE_SCOPE_PREFIX) ? name.slice(ROLE_SCOPE_PREFIX.length) : name));
  return [...new Set(roles.filter(isRole))];
}

/** A list of name patterns from a claim; anything malformed restricts to nothing rather than to everything. */
function patterns(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(' ') : [];
  return list.filter((p): p is string => typeof p === 'string' && SCOPE_PATTERN.test(p)).slice(0, MAX_SCOPE_PATTERNS);
}

function refusal(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof errors.JWTExpired) return new DomainError('unauthenticated', 'TOKEN_EXPIRED', 'The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new DomainError('unauthenticated', 'TOKEN_WRONG_ISSUER', 'The token was not issued by the configured issuer.');
    return new DomainError('unauthenticated', 'TOKEN_INVALID', `The token's ${error.claim} claim is not acceptable.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new DomainError('unauthenticated', 'TOKEN_INVALID', 'The token is signed with an algorithm Toolplane does not accept (asymmetric ones only).');
  if (error instanceof errors.JWKSNoMatchingKey) return new DomainError('unauthenticated', 'TOKEN_INVALID', 'The token is signed with a key the issuer does not publish.');
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
    return new DomainError('unavailable', 'OIDC_UNAVAILABLE', "The issuer's signing keys could not be fetched; try again shortly.");
  }
  return new DomainError('unauthenticated', 'TOKEN_INVALID', 'The token is not valid.');
}

import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { DomainError } from '../../../shared/domain-error.js';
import { callerTokenOf } from '../../../shared/principal/caller-token.js';
import { SecretRepository } from '../../secrets/domain/secret.js';
import type { TokenExchangeSettings } from '../../sources/domain/upstream-auth.js';
import { ModeCredentials, type CredentialOutcome, type CredentialRequest } from '../../sources/domain/upstream-credentials.js';
import { parseTemplate } from '../../sources/domain/value-template.js';
import { ExchangedTokenCache, useUntil, type ExchangedToken } from './exchanged-token-cache.js';
import { ACCESS_TOKEN_TYPE, ExchangeRefused, ExchangeUnavailable, ID_TOKEN_TYPE, TokenEndpoint } from './token-endpoint.js';

export interface TokenExchangeOptions {
  /** At most this many exchanged tokens are kept in memory (the least recently used go first). */
  maxCached: number;
  /** How long a token the identity provider gave no `expires_in` for is used. */
  defaultLifetimeMs: number;
  now: () => number;
}

export const DEFAULT_TOKEN_EXCHANGE_OPTIONS: TokenExchangeOptions = { maxCached: 10_000, defaultLifetimeMs: 5 * 60_000, now: () => Date.now() };

/**
 * The `token-exchange` mode (RFC 8693): the caller's own OIDC token (the subject) is exchanged at
 * the source's token endpoint for a token bound to the upstream's audience/resource, which goes
 * upstream as `Authorization: Bearer`. The subject token never goes upstream, and is neither logged
 * nor stored: the cache keys on its SHA-256. Exchanged tokens are reused until shortly before they
 * expire; an upstream 401 drops the one used and exchanges again. Concurrent calls of one caller
 * share one exchange.
 */
export class TokenExchangeCredentials extends ModeCredentials {
  readonly mode = 'token-exchange' as const;
  private readonly cache: ExchangedTokenCache;
  private readonly inFlight = new Map<string, Promise<ExchangedToken>>();

  constructor(
    private readonly endpoint: TokenEndpoint,
    private readonly secrets: SecretRepository,
    private readonly options: TokenExchangeOptions = DEFAULT_TOKEN_EXCHANGE_OPTIONS,
  ) {
    super();
    this.cache = new ExchangedTokenCache(options.maxCached);
  }

  forCall(request: CredentialRequest): Promise<CredentialOutcome> {
    return this.credential(request, false);
  }

  afterUnauthorized(request: CredentialRequest): Promise<CredentialOutcome> {
    return this.credential(request, true);
  }

  private async credential(request: CredentialRequest, renew: boolean): Promise<CredentialOutcome> {
    const { auth, target, principal } = request;
    if (auth.mode !== 'token-exchange') throw new Error(`TokenExchangeCredentials asked for mode ${auth.mode}`);
    const subject = request.callerToken ?? callerTokenOf(principal);
    if (subject === undefined) {
      return {
        kind: 'required',
        code: 'UPSTREAM_CREDENTIAL_REQUIRED',
        message: `${target.sourceName} is called with each caller's own identity (token exchange), which needs an OIDC sign-in: call it with an OIDC access token, not an API key.`,
      };
    }
    const key = cacheKey(principal.id, target.sourceId, subject, auth.tokenExchange);
    if (renew) this.cache.delete(key);
    const cached = this.cache.get(key, this.options.now());
    let token: ExchangedToken;
    try {
      token = cached ?? (await this.exchangeOnce(key, auth.tokenExchange, subject));
    } catch (error) {
      if (error instanceof ExchangeRefused) {
        return {
          kind: 'required',
          code: 'UPSTREAM_CREDENTIAL_REQUIRED',
          message: `The identity provider refused to exchange your sign-in token for ${target.sourceName} (${error.message}); sign in again, or ask an administrator whether you may use it.`,
        };
      }
      if (error instanceof ExchangeUnavailable) {
        throw new DomainError('unavailable', 'UPSTREAM_UNAVAILABLE', `Token exchange for ${target.sourceName} failed: ${error.message}.`);
      }
      throw error;
    }
    return {
      kind: 'ready',
      target: {
        ...target,
        headers: { ...target.headers, authorization: `Bearer ${token.accessToken}` },
        // The subject too: it never goes upstream, but nothing should ever show it either.
        secrets: Object.freeze([...target.secrets, { name: 'exchanged token', value: token.accessToken }, { name: 'caller token', value: subject }]),
        principalId: principal.id,
        poolKey: `${target.sourceId}#${principal.id}`,
      },
    };
  }

  /** One exchange per key at a time: concurrent first calls of a caller wait for the same answer. */
  private exchangeOnce(key: string, settings: TokenExchangeSettings, subject: string): Promise<ExchangedToken> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const exchange = this.exchange(settings, subject).then((token) => {
      this.cache.set(key, token);
      return token;
    });
    this.inFlight.set(key, exchange);
    const done = () => this.inFlight.delete(key);
    exchange.then(done, done);
    return exchange;
  }

  private async exchange(settings: TokenExchangeSettings, subject: string): Promise<ExchangedToken> {
    const clientSecret = settings.clientSecret === undefined ? undefined : await this.revealClientSecret(settings.clientSecret);
    const issuedAt = this.options.now();
    const answer = await this.endpoint.exchange({ settings, ...(clientSecret !== undefined ? { clientSecret } : {}), subjectToken: subject, subjectTokenType: subjectTokenType(subject) });
    return { accessToken: answer.accessToken, useUntil: useUntil(issuedAt, answer.expiresIn, this.options.defaultLifetimeMs) };
  }

  private async revealClientSecret(reference: string): Promise<string> {
    const [ref] = parseTemplate(reference).references;
    const value = ref?.kind === 'secret' ? await this.secrets.reveal(ref.name) : undefined;
    if (value === undefined) {
      throw new DomainError('invalid', 'SECRET_NOT_FOUND', `The token exchange's client secret ${reference.slice(0, 140)} is not a stored secret.`, [
        { path: 'upstreamAuth.tokenExchange.clientSecret', message: `refers to a missing secret` },
      ]);
    }
    return value;
  }
}

/** An ID token (it carries a nonce or at_hash, or says so in `typ`) is exchanged as one; anything else as an access token. */
export function subjectTokenType(token: string): typeof ACCESS_TOKEN_TYPE | typeof ID_TOKEN_TYPE {
  try {
    const claims = decodeJwt(token);
    return claims.nonce !== undefined || claims.at_hash !== undefined ? ID_TOKEN_TYPE : ACCESS_TOKEN_TYPE;
  } catch {
    return ACCESS_TOKEN_TYPE;
  }
}

function cacheKey(principalId: string, sourceId: string, subject: string, settings: TokenExchangeSettings): string {
  const { tokenEndpoint, audience, resource, scopes, clientId, clientSecret } = settings;
  return createHash('sha256').update(JSON.stringify([principalId, sourceId, subject, tokenEndpoint, audience, resource, scopes, clientId, clientSecret])).digest('base64url');
}

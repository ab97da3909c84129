import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { DomainError } from '../../../shared/domain-error.js';
import { ADMIN, ANONYMOUS_DEVELOPER, may, type Principal } from '../../../shared/principal/principal.js';
import { BucketSet } from '../../../shared/token-bucket.js';
import { ApiKeyAuthenticator } from '../infrastructure/api-key-authenticator.js';
import { hashApiKey } from '../infrastructure/api-key-secret.js';
import { carryCallerToken } from '../../../shared/principal/caller-token.js';
import { looksLikeJwt, type OidcVerifier } from '../infrastructure/oidc-verifier.js';
import { firstHeaderValue } from '../../../shared/http/header-value.js';
import { declaredAccess, detailFor, type Access, type RouteTargets } from '../../../shared/http/route-access.js';

/** The OidcVerifier, or null when no issuer is configured. */
export const OIDC_VERIFIER = Symbol('OIDC_VERIFIER');

export const ADMIN_KEY = Symbol('ADMIN_KEY');
type AuthedRequest = { headers: Record<string, string | string[] | undefined>; principal?: Principal; ip?: string; socket?: { remoteAddress?: string } };

/** Client addresses remembered for failed authentications at most (the oldest are forgotten first). */
const MAX_THROTTLED_ADDRESSES = 10_000;

/**
 * The one place that decides who may use a route: authenticates the bearer credential (the
 * bootstrap admin key, an API key, or a JWT from the configured OIDC issuer), then checks the
 * route's declared permission against the principal's roles. 401 for a missing, unknown, revoked
 * or expired credential; 403 for a role that may not; a route without a declaration is refused
 * (fail closed). TOOLPLANE_AUTH=off (loopback only) makes every caller the admin.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly keyDigest: Buffer;
  /** Failed authentications per client address; an address out of tokens is refused until `blockedUntil`. */
  private readonly failures: BucketSet;
  private readonly blockedUntil = new Map<string, number>();
  /** Each route's declared access, by handler and controller (see accessOf). */
  private readonly declared = new WeakMap<RouteTargets[number], Map<RouteTargets[number], Access>>();

  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ADMIN_KEY) adminKey: string,
    @Inject(ApiKeyAuthenticator) private readonly apiKeys: ApiKeyAuthenticator,
    @Inject(OIDC_VERIFIER) private readonly oidc: OidcVerifier | null,
  ) {
    this.keyDigest = Buffer.from(hashApiKey(adminKey), 'hex');
    this.failures = new BucketSet(MAX_THROTTLED_ADDRESSES);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    const controller = context.getClass();
    const access = this.accessOf(handler, controller);
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    if (access === 'public') {
      const detail = detailFor(this.reflector, [handler, controller]);
      if (detail && (request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined)) {
        const principal = await this.throttled(request, () => this.authenticate(request)).catch(() => undefined);
        if (principal && may(principal, detail)) request.principal = principal;
      }
      return true;
    }
    const principal = await this.throttled(request, () => this.authenticate(request));
    request.principal = principal;
    if (access === undefined) {
      throw new DomainError('forbidden', 'FORBIDDEN', 'This route declares no permission, so nobody may use it.');
    }
    if (!may(principal, access)) {
      throw new DomainError('forbidden', 'FORBIDDEN', `The ${principal.roles.join(', ')} role may not do this (it needs ${access}).`);
    }
    return true;
  }

  /** What a route declares, read from its decorators once (they do not change while Toolplane runs). */
  private accessOf(handler: RouteTargets[number], controller: RouteTargets[number]): Access {
    let byController = this.declared.get(handler);
    if (!byController) {
      byController = new Map();
      this.declared.set(handler, byController);
    }
    if (!byController.has(controller)) byController.set(controller, declaredAccess(this.reflector, [handler, controller]));
    return byController.get(controller);
  }

  /**
   * Failed authentications are counted per client address (TOOLPLANE_AUTH_FAILURES_PER_MINUTE, a
   * token bucket): past the budget the address is refused with 429 until a token is back, whatever
   * key it presents, so guessing keys stays slow and costs the database nothing.
   */
  private async throttled(request: AuthedRequest, authenticate: () => Promise<Principal>): Promise<Principal> {
    const address = request.ip ?? request.socket?.remoteAddress ?? 'unknown';
    const now = Date.now();
    const until = this.blockedUntil.get(address);
    if (until !== undefined && until > now) throw tooManyFailures(until - now);
    try {
      return await authenticate();
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unauthenticated' && error.code !== 'UNAUTHENTICATED') {
        const answer = this.failures.take(address, this.config.authFailuresPerMinute, now);
        if (!answer.allowed) {
          if (this.blockedUntil.size >= MAX_THROTTLED_ADDRESSES) this.blockedUntil.delete(this.blockedUntil.keys().next().value!);
          this.blockedUntil.set(address, now + answer.retryAfterMs);
          throw tooManyFailures(answer.retryAfterMs);
        }
      }
      throw error;
    }
  }

  private async authenticate(request: AuthedRequest): Promise<Principal> {
    const principal = await this.identify(request);
    const limit = this.config.rateLimitPerPrincipal;
    return principal.rateLimitPerMinute === undefined && limit > 0 ? carryCallerToken(principal, { ...principal, rateLimitPerMinute: limit }) : principal;
  }

  private async identify(request: AuthedRequest): Promise<Principal> {
    if (this.config.authDisabled) return ANONYMOUS_DEVELOPER;
    const presented = bearerToken(request.headers.authorization) ?? firstHeaderValue(request.headers['x-api-key']);
    if (!presented) {
      throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'Send an API key as "Authorization: Bearer <key>".');
    }
    // One hash per request: the key as API keys are stored, whose digest is also compared with the
    // admin key's (digests, so the comparison is constant-time whatever the lengths).
    const presentedHash = hashApiKey(presented);
    if (timingSafeEqual(Buffer.from(presentedHash, 'hex'), this.keyDigest)) return ADMIN;
    if (this.oidc && looksLikeJwt(presented)) return this.oidc.verify(presented);
    return this.apiKeys.authenticateHash(presentedHash);
  }
}

function tooManyFailures(retryAfterMs: number): DomainError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new DomainError('rate_limited', 'TOO_MANY_FAILED_AUTHENTICATIONS', `Too many failed authentications from this address; try again in ${seconds} s.`, [], seconds);
}

function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = firstHeaderValue(header);
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}


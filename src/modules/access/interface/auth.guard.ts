import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { DomainError } from '../../../shared/domain-error.js';
import { ADMIN, ANONYMOUS_DEVELOPER, Principal } from '../domain/principal.js';

export const ADMIN_KEY = Symbol('ADMIN_KEY');
const IS_PUBLIC = 'toolplane:public';

/** Marks an endpoint reachable without credentials (health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

type AuthedRequest = { headers: Record<string, string | string[] | undefined>; principal?: Principal };

/** Bearer API key on every endpoint but the public ones; TOOLPLANE_AUTH=off on loopback only. */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly keyDigest: Buffer;

  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ADMIN_KEY) adminKey: string,
  ) {
    this.keyDigest = digest(adminKey);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    if (this.config.authDisabled) {
      request.principal = ANONYMOUS_DEVELOPER;
      return true;
    }
    const presented = bearerToken(request.headers.authorization) ?? single(request.headers['x-api-key']);
    if (!presented) {
      throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'Send an API key as "Authorization: Bearer <key>".');
    }
    // Compare digests so the comparison is constant-time whatever the lengths.
    if (!timingSafeEqual(digest(presented), this.keyDigest)) {
      throw new DomainError('unauthenticated', 'INVALID_API_KEY', 'The API key is not valid.');
    }
    request.principal = ADMIN;
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<AuthedRequest>().principal ?? ANONYMOUS_DEVELOPER;
});

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = single(header);
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

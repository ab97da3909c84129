import { ExecutionContext, SetMetadata, applyDecorators, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { Permission } from '../principal/permissions.js';
import { ANONYMOUS_DEVELOPER, type Principal } from '../principal/principal.js';

/** What every route declares about who may use it; the access module's AuthGuard enforces it. */

const IS_PUBLIC = 'toolplane:public';
const PERMISSION = 'toolplane:permission';

/** Marks an endpoint reachable without credentials (health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

const DETAIL_FOR = 'toolplane:detail-for';

/**
 * A public endpoint that tells more to a caller holding `permission`: a valid credential that
 * grants it sets `request.principal`; a missing, bad or lesser one is not refused (the answer is
 * the public one), but a bad one still counts against its address's failed authentications.
 */
export const PublicWithDetailFor = (permission: Permission) => applyDecorators(Public(), SetMetadata(DETAIL_FOR, permission));

/** The extension naming an operation's permission in the OpenAPI document. */
export const PERMISSION_EXTENSION = 'x-toolplane-permission';

/**
 * The one permission a route needs; every route that is not public declares one (the
 * authorization matrix test holds every operation of the OpenAPI document to it). It is
 * published in the API reference as `x-toolplane-permission`.
 */
export const Requires = (permission: Permission) => applyDecorators(SetMetadata(PERMISSION, permission), ApiExtension(PERMISSION_EXTENSION, permission));

export type RouteTargets = Parameters<Reflector['getAllAndOverride']>[1];
export type Access = 'public' | Permission | undefined;

/** The permission a public route tells more to (see PublicWithDetailFor), if it does. */
export function detailFor(reflector: Reflector, targets: RouteTargets): Permission | undefined {
  return reflector.getAllAndOverride<Permission | undefined>(DETAIL_FOR, targets);
}

/** What a route declares: public, a permission, or nothing (refused). */
export function declaredAccess(reflector: Reflector, targets: RouteTargets): Access {
  if (reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return 'public';
  return reflector.getAllAndOverride<Permission | undefined>(PERMISSION, targets);
}

type RequestWithPrincipal = { principal?: Principal };

/** The principal the AuthGuard put on the request (anyone, with auth off). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<RequestWithPrincipal>().principal ?? ANONYMOUS_DEVELOPER;
});

import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { loadConfig } from '../../../config/app-config.js';
import { callerTokenOf, rememberCallerToken } from '../../../shared/principal/caller-token.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { Requires } from '../../../shared/http/route-access.js';
import type { ApiKeyAuthenticator } from '../infrastructure/api-key-authenticator.js';
import type { OidcVerifier } from '../infrastructure/oidc-verifier.js';
import { AuthGuard } from './auth.guard.js';

class ToolsController {
  @Requires('catalog:read')
  list(): void {}
}

/** Verifies any JWT-looking token as alice, remembering it beside her principal as the real verifier does. */
const verifier = {
  verify: async (token: string): Promise<Principal> => {
    const principal: Principal = { id: 'oidc:alice@idp', name: 'alice', kind: 'oidc', roles: ['agent'] };
    rememberCallerToken(principal, token);
    return principal;
  },
} as unknown as OidcVerifier;

function contextOf(request: Record<string, unknown>): ExecutionContext {
  return { getHandler: () => ToolsController.prototype.list, getClass: () => ToolsController, switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

describe('AuthGuard and the caller token', () => {
  const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';

  it.each([
    ['without a rate limit per principal', '0'],
    ['with one (the principal is copied to carry it)', '600'],
  ])('keeps the OIDC token the caller presented beside the principal it puts on the request, never on it (%s)', async (_case, limit) => {
    const guard = new AuthGuard(new Reflector(), loadConfig({ PATH: '/usr/bin', TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL: limit }), 'admin-key', {} as ApiKeyAuthenticator, verifier);
    const request: Record<string, unknown> & { principal?: Principal } = { headers: { authorization: `Bearer ${token}` }, ip: '127.0.0.1' };
    expect(await guard.canActivate(contextOf(request))).toBe(true);
    expect(request.principal).toMatchObject({ id: 'oidc:alice@idp', ...(limit !== '0' ? { rateLimitPerMinute: 600 } : {}) });
    expect(callerTokenOf(request.principal!)).toBe(token);
    expect(JSON.stringify(request.principal)).not.toContain(token);
    expect(Object.values(request.principal!)).not.toContain(token);
  });
});

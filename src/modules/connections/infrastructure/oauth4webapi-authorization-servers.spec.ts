import type { TokenEndpointResponse } from 'oauth4webapi';
import { granted } from './oauth4webapi-authorization-servers.js';

const response = (fields: Partial<Record<keyof TokenEndpointResponse, unknown>>) => ({ access_token: 'a', token_type: 'bearer', ...fields }) as unknown as TokenEndpointResponse;

describe('granted', () => {
  it('keeps a Bearer token with its refresh token, scope tokens and lifetime', () => {
    expect(granted(response({ refresh_token: 'r', expires_in: 300, scope: 'read write' }))).toEqual({ accessToken: 'a', refreshToken: 'r', tokenType: 'Bearer', expiresInSeconds: 300, scopes: ['read', 'write'] });
    expect(granted(response({ expires_in: -1, scope: 'ok "bad"' }))).toEqual({ accessToken: 'a', tokenType: 'Bearer', scopes: ['ok'] });
  });

  it('takes a lifetime past ten years as ten years, and refuses another token type', () => {
    expect(granted(response({ expires_in: 1e15 })).expiresInSeconds).toBe(10 * 365 * 24 * 3600);
    expect(() => granted(response({ token_type: 'dpop' }))).toThrow('the authorization server issued a dpop token; only Bearer tokens are supported');
  });
});

import { rememberCallerToken } from '../../../shared/principal/caller-token.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { connectionNoteOf, type PerUserSource } from './principal-connection-notes.js';

const key: Principal = { id: 'key-1', name: 'ci', kind: 'api-key', roles: ['agent'] };
const source = (mode: PerUserSource['mode'], extra: Partial<PerUserSource> = {}): PerUserSource => ({ id: 's1', name: 'crm', mode, connected: false, missingSecrets: [], ...extra });

describe('connectionNoteOf', () => {
  it("sends an oauth source's reader without a connection to the console's connections page", () => {
    expect(connectionNoteOf(source('oauth'), key, 'https://tp.example/')).toEqual({ required: true, source: 'crm', connectUrl: 'https://tp.example/console/connections' });
    expect(connectionNoteOf(source('oauth', { connected: true }), key, 'https://tp.example')).toBeUndefined();
  });

  it('names the values of its own a user-secret source misses', () => {
    expect(connectionNoteOf(source('user-secret', { missingSecrets: ['GITHUB_TOKEN'] }), key, 'x')).toEqual({ required: true, source: 'crm', hint: 'set your own GITHUB_TOKEN (PUT /api/v1/me/secrets/GITHUB_TOKEN)' });
    expect(connectionNoteOf(source('user-secret', { missingSecrets: null }), key, 'x')?.hint).toContain('PUT /api/v1/me/secrets/');
    expect(connectionNoteOf(source('user-secret'), key, 'x')).toBeUndefined();
  });

  it('notes a token-exchange source for a reader that did not sign in with OIDC only', () => {
    expect(connectionNoteOf(source('token-exchange'), key, 'x')?.hint).toContain('sign in with OIDC');
    const alice: Principal = { id: 'oidc:alice@idp', name: 'alice', kind: 'oidc', roles: ['agent'] };
    rememberCallerToken(alice, 'a.b.c');
    expect(connectionNoteOf(source('token-exchange'), alice, 'x')).toBeUndefined();
  });
});

import { ApiKeyChanged } from '../domain/api-key-changed.event.js';
import { anApiKey } from '../testing/builders.js';
import { InMemoryApiKeyRepository } from '../testing/in-memory-api-key-repository.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { ForgetChangedKeysHandler } from './forget-changed-keys.handler.js';

describe('ForgetChangedKeysHandler', () => {
  it('makes this process read a changed key again on its next request, instead of trusting its cache', async () => {
    const key = anApiKey('ci');
    const other = anApiKey('other');
    const keys = new InMemoryApiKeyRepository([key, other]);
    const authenticator = new ApiKeyAuthenticator(keys, () => new Date('2026-03-01T12:00:00Z'));
    await authenticator.authenticateHash(key.hash);
    await authenticator.authenticateHash(other.hash);
    await keys.revoke(key.id, new Date('2026-03-01T12:00:00Z'));
    await keys.revoke(other.id, new Date('2026-03-01T12:00:00Z'));
    // Cached: the revocation is not seen yet.
    await expect(authenticator.authenticateHash(key.hash)).resolves.toMatchObject({ id: key.id });

    new ForgetChangedKeysHandler(authenticator).handle(new ApiKeyChanged(key.hash));

    await expect(authenticator.authenticateHash(key.hash)).rejects.toMatchObject({ code: 'API_KEY_REVOKED' });
    await expect(authenticator.authenticateHash(other.hash)).resolves.toMatchObject({ id: other.id });
  });
});

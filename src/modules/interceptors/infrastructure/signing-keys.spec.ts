import { SecretRepository } from '../../secrets/domain/secret.js';
import { InMemorySecretRepository } from '../../secrets/testing/in-memory-secret-repository.js';
import { SigningKeys } from './signing-keys.js';

describe('SigningKeys', () => {
  it('reveals a key once per TTL, and again after it (a secret put again takes effect)', async () => {
    let now = 0;
    const secrets = new InMemorySecretRepository({ hook: 'v1' });
    const keys = new SigningKeys(secrets, () => now, 30_000);
    expect(await Promise.all([keys.key('hook'), keys.key('hook')])).toEqual(['v1', 'v1']);
    await secrets.put('hook', 'v2', new Date());
    now = 29_999;
    expect(await keys.key('hook')).toBe('v1');
    now = 30_000;
    expect(await keys.key('hook')).toBe('v2');
    expect(secrets.revealed).toEqual(['hook', 'hook']);
  });

  it('does not keep a missing secret or a failed reveal, and names the secret, never a value', async () => {
    const secrets = new InMemorySecretRepository({});
    const keys = new SigningKeys(secrets, () => 0);
    await expect(keys.key('hook')).rejects.toThrow('the signing secret "hook" does not exist');
    await secrets.put('hook', 'v1', new Date());
    expect(await keys.key('hook')).toBe('v1');

    class Failing extends InMemorySecretRepository {
      override async reveal(): Promise<string | undefined> {
        throw new Error('could not open the sealed value s3cr3t');
      }
    }
    const failing: SecretRepository = new Failing();
    await expect(new SigningKeys(failing, () => 0).key('hook')).rejects.toThrow(/^the signing secret "hook" could not be read$/);
  });
});

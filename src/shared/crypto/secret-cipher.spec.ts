import { randomBytes } from 'node:crypto';
import { SecretCipher, SecretKeyMismatch } from './secret-cipher.js';

describe('SecretCipher', () => {
  const cipher = new SecretCipher(randomBytes(32));

  it('round-trips and never shows the plaintext in the sealed form', () => {
    const sealed = cipher.seal('hunter2-very-secret', 'secret:A');
    expect(JSON.stringify(sealed)).not.toContain('hunter2');
    expect(cipher.open(sealed, 'secret:A')).toBe('hunter2-very-secret');
  });

  it('refuses a value moved to another name', () => {
    const sealed = cipher.seal('v', 'secret:A');
    expect(() => cipher.open(sealed, 'secret:B')).toThrow();
  });

  it('names the key mismatch clearly', () => {
    const sealed = new SecretCipher(randomBytes(32)).seal('v', 'x');
    expect(() => cipher.open(sealed, 'x')).toThrow(SecretKeyMismatch);
  });
});

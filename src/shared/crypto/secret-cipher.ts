import { hkdfSync, createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A value sealed with AES-256-GCM; `keyId` names the key so a wrong key fails clearly. */
export interface SealedValue {
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

export class SecretKeyMismatch extends Error {
  constructor(expected: string, actual: string) {
    super(`Data was encrypted with key ${expected}, but the configured key is ${actual}; set TOOLPLANE_ENCRYPTION_KEY to the original key.`);
  }
}

export class SecretCipher {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The encryption key must be 32 bytes.');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  /** A 32-byte key for another purpose, derived from this one (HKDF-SHA256): it shares its custody, never its value. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `toolplane:${purpose}`, 32));
  }

  seal(plaintext: string, associatedData: string): SealedValue {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.keyId, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  open(sealed: SealedValue, associatedData: string): string {
    if (sealed.keyId !== this.keyId) throw new SecretKeyMismatch(sealed.keyId, this.keyId);
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  }

  sealJson(value: unknown, associatedData: string): SealedValue {
    return this.seal(JSON.stringify(value), associatedData);
  }

  openJson<T>(sealed: SealedValue, associatedData: string): T {
    return JSON.parse(this.open(sealed, associatedData)) as T;
  }
}

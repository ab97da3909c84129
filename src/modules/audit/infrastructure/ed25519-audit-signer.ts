import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { AuditSigner } from '../domain/audit-chain.js';

/** PKCS#8 DER of an Ed25519 private key, up to the 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Ed25519 over the chain's hashes. The key is derived from Toolplane's encryption key (which every
 * replica shares and the database never holds), so whoever can write the database cannot sign.
 */
export class Ed25519AuditSigner extends AuditSigner {
  readonly keyId: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(seed: Buffer) {
    super();
    if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
    this.privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    this.publicKey = createPublicKey(this.privateKey);
    this.keyId = createHash('sha256').update(this.publicKey.export({ format: 'der', type: 'spki' })).digest('hex').slice(0, 16);
  }

  /** The public key, to verify the trail elsewhere (PEM). */
  get publicKeyPem(): string {
    return this.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  }

  sign(hash: string): string {
    return sign(null, Buffer.from(hash, 'hex'), this.privateKey).toString('base64');
  }

  verify(hash: string, signature: string, keyId: string): boolean {
    if (keyId !== this.keyId || !/^[0-9a-f]{64}$/.test(hash)) return false;
    try {
      return verify(null, Buffer.from(hash, 'hex'), this.publicKey, Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  }
}

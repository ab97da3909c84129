import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX_LENGTH as PREFIX_LENGTH } from '../domain/api-key.js';
import { ApiKeySecrets } from '../domain/api-key-secrets.port.js';

/**
 * A new API key: `tp_` and 256 random bits (base64url). Only its SHA-256 is stored: for a key this
 * random a fast hash is as strong as a slow one, and checking it costs microseconds per request.
 */
export function newApiKeySecret(): { key: string; prefix: string; hash: string } {
  const key = `tp_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export class Sha256ApiKeySecrets extends ApiKeySecrets {
  generate(): { key: string; prefix: string; hash: string } {
    return newApiKeySecret();
  }

  hash(key: string): string {
    return hashApiKey(key);
  }
}

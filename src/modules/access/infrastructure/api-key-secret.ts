import { hash, randomBytes } from 'node:crypto';
import { ApiKeySecrets, type ApiKeySecret } from '../domain/api-key-secrets.port.js';

/** `tp_` and 8 more characters: what `prefix` keeps of a key. */
const PREFIX_LENGTH = 'tp_'.length + 8;

/**
 * A new API key: `tp_` and 256 random bits (base64url). Only its SHA-256 is stored: for a key this
 * random a fast hash is as strong as a slow one, and checking it costs microseconds per request.
 */
export function newApiKeySecret(): ApiKeySecret {
  return apiKeySecretOf(`tp_${randomBytes(32).toString('base64url')}`);
}

function apiKeySecretOf(key: string): ApiKeySecret {
  return { key, prefix: key.slice(0, PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export class Sha256ApiKeySecrets extends ApiKeySecrets {
  generate(): ApiKeySecret {
    return newApiKeySecret();
  }

  of(key: string): ApiKeySecret {
    return apiKeySecretOf(key);
  }

  hash(key: string): string {
    return hashApiKey(key);
  }
}

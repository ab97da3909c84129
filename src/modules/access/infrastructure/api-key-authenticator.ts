import { Logger } from '@nestjs/common';
import { DomainError } from '../../../shared/domain-error.js';
import { ApiKeyRepository, keyState, principalOf, type ApiKey } from '../domain/api-key.js';
import type { Principal } from '../../../shared/principal/principal.js';

/** How long a key looked up is trusted before it is read again: a revocation elsewhere takes effect within it. */
const CACHE_MS = 5000;
const MAX_CACHED = 10_000;
/** `lastUsedAt` is written at most this often per key. */
const TOUCH_EVERY_MS = 60_000;

interface Cached {
  key: ApiKey | undefined;
  until: number;
}

/**
 * Finds the API key a request presents (by its SHA-256) and answers its principal, or refuses it
 * with 401: unknown, revoked or expired. Lookups are cached for a few seconds (unknown keys too,
 * so guessing costs the database nothing); revoking through this process drops the entry at once,
 * another process sees it within CACHE_MS.
 */
export class ApiKeyAuthenticator {
  private readonly logger = new Logger('access');
  private readonly cache = new Map<string, Cached>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `hash`: the presented key's hashApiKey, as keys are stored. */
  async authenticateHash(hash: string): Promise<Principal> {
    const key = await this.lookup(hash);
    if (!key) throw new DomainError('unauthenticated', 'INVALID_API_KEY', 'The API key is not valid.');
    const now = this.now();
    const state = keyState(key, now);
    if (state === 'revoked') throw new DomainError('unauthenticated', 'API_KEY_REVOKED', 'The API key was revoked.');
    if (state === 'expired') throw new DomainError('unauthenticated', 'API_KEY_EXPIRED', 'The API key has expired.');
    this.touch(key, now);
    return principalOf(key);
  }

  /** Forgets a key (revoked here), so this process refuses it from the next request on. */
  forget(hash: string): void {
    this.cache.delete(hash);
  }

  private async lookup(hash: string): Promise<ApiKey | undefined> {
    const cached = this.cache.get(hash);
    const nowMs = Date.now();
    if (cached && cached.until > nowMs) return cached.key;
    const key = await this.keys.findByHash(hash);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hash, { key, until: nowMs + CACHE_MS });
    return key;
  }

  private touch(key: ApiKey, now: Date): void {
    const last = this.touched.get(key.id) ?? key.lastUsedAt?.getTime() ?? 0;
    if (now.getTime() - last < TOUCH_EVERY_MS) return;
    this.touched.set(key.id, now.getTime());
    if (this.touched.size > MAX_CACHED) this.touched.delete(this.touched.keys().next().value!);
    this.keys.touch(key.id, now).catch((error: unknown) => this.logger.warn(`could not record the use of API key ${key.prefix}…: ${String(error)}`));
  }
}

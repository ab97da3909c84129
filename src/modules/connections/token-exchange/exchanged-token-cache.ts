/** An access token the identity provider issued for one upstream, and until when to use it. */
export interface ExchangedToken {
  accessToken: string;
  /** Epoch ms after which it is exchanged again (some time before the token itself expires). */
  useUntil: number;
}

/** How long before its expiry an exchanged token is no longer used: 10 % of its life, 5 s to 60 s. */
export function useUntil(issuedAt: number, expiresInSeconds: number | undefined, defaultLifetimeMs: number): number {
  const lifetime = expiresInSeconds !== undefined && Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds * 1000 : defaultLifetimeMs;
  const margin = Math.min(60_000, Math.max(5_000, lifetime / 10));
  return issuedAt + Math.max(0, lifetime - margin);
}

/**
 * Exchanged tokens in memory, by (principal, source, subject token digest, settings): bounded, the
 * least recently used dropped first, an expired one dropped when read. Nothing of it is stored.
 */
export class ExchangedTokenCache {
  private readonly entries = new Map<string, ExchangedToken>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): ExchangedToken | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.useUntil <= now) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, token: ExchangedToken): void {
    this.entries.delete(key);
    this.entries.set(key, token);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

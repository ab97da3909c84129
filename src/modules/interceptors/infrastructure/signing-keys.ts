import type { SecretRepository } from '../../secrets/domain/secret.js';

/** How long a revealed signing key is kept: a secret put again takes effect within this. */
export const SIGNING_KEY_TTL_MS = 30_000;
/** Names held before expired ones are dropped. */
const PRUNE_ABOVE = 64;

/**
 * The values of the secrets webhooks are signed with, revealed through the secrets module and
 * kept in memory for SIGNING_KEY_TTL_MS, so a call does not open a sealed secret each time. A
 * missing secret or a failed reveal is not kept: the next call asks again. Errors name the
 * secret, never its value.
 */
export class SigningKeys {
  private readonly held = new Map<string, { key: Promise<string>; until: number }>();

  constructor(
    private readonly secrets: SecretRepository,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = SIGNING_KEY_TTL_MS,
  ) {}

  key(name: string): Promise<string> {
    const now = this.now();
    const held = this.held.get(name);
    if (held && held.until > now) return held.key;
    const key = this.reveal(name);
    if (this.held.size >= PRUNE_ABOVE) for (const [other, entry] of this.held) if (entry.until <= now) this.held.delete(other);
    this.held.set(name, { key, until: now + this.ttlMs });
    key.catch(() => {
      if (this.held.get(name)?.key === key) this.held.delete(name);
    });
    return key;
  }

  private async reveal(name: string): Promise<string> {
    let value: string | undefined;
    try {
      value = await this.secrets.reveal(name);
    } catch (error) {
      throw new Error(`the signing secret "${name}" could not be read`, { cause: error });
    }
    if (value === undefined) throw new Error(`the signing secret "${name}" does not exist`);
    return value;
  }
}

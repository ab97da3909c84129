import type { SecretMetadata } from '../domain/secret.js';
import { UserSecrets, type UserSecretHolder } from '../domain/user-secret.js';

/** Each principal's secrets in plain memory. */
export class InMemoryUserSecrets extends UserSecrets {
  private readonly values = new Map<string, Map<string, { value: string; createdAt: Date; updatedAt: Date }>>();

  constructor(secrets: Record<string, Record<string, string>> = {}, at = new Date('2026-01-01T00:00:00Z')) {
    super();
    for (const [principalId, values] of Object.entries(secrets)) {
      for (const [name, value] of Object.entries(values)) this.of(principalId).set(name, { value, createdAt: at, updatedAt: at });
    }
  }

  async put(principalId: string, name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }> {
    const existing = this.of(principalId).get(name);
    const createdAt = existing?.createdAt ?? now;
    this.of(principalId).set(name, { value, createdAt, updatedAt: now });
    return { name, createdAt, updatedAt: now, created: existing === undefined };
  }

  async delete(principalId: string, name: string): Promise<boolean> {
    return this.of(principalId).delete(name);
  }

  async reveal(principalId: string, names: readonly string[]): Promise<Map<string, string>> {
    const own = this.of(principalId);
    return new Map(names.filter((name) => own.has(name)).map((name) => [name, own.get(name)!.value]));
  }

  async list(principalId: string): Promise<SecretMetadata[]> {
    return [...this.of(principalId).entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, { createdAt, updatedAt }]) => ({ name, createdAt, updatedAt }));
  }

  async count(principalId: string): Promise<number> {
    return this.of(principalId).size;
  }

  async holders(names: readonly string[]): Promise<UserSecretHolder[]> {
    return [...this.values.entries()]
      .map(([principalId, own]) => ({ principalId, names: names.filter((name) => own.has(name)).sort() }))
      .filter((holder) => holder.names.length > 0)
      .sort((a, b) => (a.principalId < b.principalId ? -1 : 1));
  }

  async dropPrincipal(principalId: string): Promise<number> {
    const size = this.of(principalId).size;
    this.values.delete(principalId);
    return size;
  }

  private of(principalId: string) {
    let own = this.values.get(principalId);
    if (!own) this.values.set(principalId, (own = new Map()));
    return own;
  }
}

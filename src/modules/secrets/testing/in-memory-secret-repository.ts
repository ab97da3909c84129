import { SecretRepository, type SecretMetadata } from '../domain/secret.js';

/** Secrets by name, in plain memory; records which values were revealed. */
export class InMemorySecretRepository extends SecretRepository {
  private readonly values = new Map<string, { value: string; createdAt: Date; updatedAt: Date }>();
  readonly revealed: string[] = [];

  constructor(secrets: Record<string, string> = {}, at = new Date('2026-01-01T00:00:00Z')) {
    super();
    for (const [name, value] of Object.entries(secrets)) this.values.set(name, { value, createdAt: at, updatedAt: at });
  }

  async put(name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }> {
    const existing = this.values.get(name);
    const createdAt = existing?.createdAt ?? now;
    this.values.set(name, { value, createdAt, updatedAt: now });
    return { name, createdAt, updatedAt: now, created: existing === undefined };
  }

  async delete(name: string): Promise<boolean> {
    return this.values.delete(name);
  }

  async reveal(name: string): Promise<string | undefined> {
    this.revealed.push(name);
    return this.values.get(name)?.value;
  }

  async existing(names: string[]): Promise<Set<string>> {
    return new Set(names.filter((name) => this.values.has(name)));
  }

  async list(after: string | undefined, limit: number): Promise<SecretMetadata[]> {
    return [...this.values.entries()]
      .filter(([name]) => after === undefined || name > after)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([name, { createdAt, updatedAt }]) => ({ name, createdAt, updatedAt }));
  }
}

import { In, MoreThan } from 'typeorm';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { SecretCipher } from '../../../shared/crypto/secret-cipher.js';
import { SecretMetadata, SecretRepository } from '../domain/secret.js';
import { SecretOrmEntity } from './secret.orm-entity.js';

/** The secret's name is bound into the ciphertext, so a sealed value cannot be moved to another name. */
export class TypeormSecretRepository extends SecretRepository {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(SecretOrmEntity);
  }

  async put(name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }> {
    const sealed = this.cipher.seal(value, `secret:${name}`);
    const rows: { created: boolean; created_at: Date; updated_at: Date }[] = await this.uow.manager().query(
      `INSERT INTO secrets (name, sealed, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (name) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = EXCLUDED.updated_at
       RETURNING (xmax = 0) AS created, created_at, updated_at`,
      [name, JSON.stringify(sealed), now],
    );
    const row = rows[0]!;
    return { name, created: row.created, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.repo.delete({ name });
    return (result.affected ?? 0) > 0;
  }

  async reveal(name: string): Promise<string | undefined> {
    const row = await this.repo.findOne({ where: { name } });
    return row ? this.cipher.open(row.sealed, `secret:${name}`) : undefined;
  }

  async existing(names: string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows = await this.repo.find({ select: { name: true }, where: { name: In(names) } });
    return new Set(rows.map((r) => r.name));
  }

  async list(after: string | undefined, limit: number): Promise<SecretMetadata[]> {
    const rows = await this.repo.find({
      select: { name: true, createdAt: true, updatedAt: true },
      where: after ? { name: MoreThan(after) } : {},
      order: { name: 'ASC' },
      take: limit,
    });
    return rows.map(({ name, createdAt, updatedAt }) => ({ name, createdAt, updatedAt }));
  }
}

import { In } from 'typeorm';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { SecretCipher } from '../../../shared/crypto/secret-cipher.js';
import type { SecretMetadata } from '../domain/secret.js';
import { UserSecrets, type UserSecretHolder } from '../domain/user-secret.js';
import { UserSecretOrmEntity } from './user-secret.orm-entity.js';

/** The principal and the name are bound into the ciphertext: a sealed value cannot be moved to another principal or name. */
export class TypeormUserSecrets extends UserSecrets {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(UserSecretOrmEntity);
  }

  async put(principalId: string, name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }> {
    const sealed = this.cipher.seal(value, contextOf(principalId, name));
    const rows: { created: boolean; created_at: Date; updated_at: Date }[] = await this.uow.manager().query(
      `INSERT INTO user_secrets (principal_id, name, sealed, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT (principal_id, name) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = EXCLUDED.updated_at
       RETURNING (xmax = 0) AS created, created_at, updated_at`,
      [principalId, name, JSON.stringify(sealed), now],
    );
    const row = rows[0]!;
    return { name, created: row.created, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  async delete(principalId: string, name: string): Promise<boolean> {
    const result = await this.repo.delete({ principalId, name });
    return (result.affected ?? 0) > 0;
  }

  async reveal(principalId: string, names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = await this.repo.find({ where: { principalId, name: In([...names]) } });
    return new Map(rows.map((row) => [row.name, this.cipher.open(row.sealed, contextOf(principalId, row.name))]));
  }

  async list(principalId: string): Promise<SecretMetadata[]> {
    const rows = await this.repo.find({ select: { name: true, createdAt: true, updatedAt: true }, where: { principalId }, order: { name: 'ASC' } });
    return rows.map(({ name, createdAt, updatedAt }) => ({ name, createdAt, updatedAt }));
  }

  count(principalId: string): Promise<number> {
    return this.repo.count({ where: { principalId } });
  }

  async holders(names: readonly string[]): Promise<UserSecretHolder[]> {
    if (names.length === 0) return [];
    const rows: { principal_id: string; names: string[] }[] = await this.uow.manager().query(
      `SELECT principal_id, array_agg(name ORDER BY name) AS names FROM user_secrets WHERE name = ANY($1) GROUP BY principal_id ORDER BY principal_id`,
      [[...names]],
    );
    return rows.map((row) => ({ principalId: row.principal_id, names: row.names }));
  }

  async dropPrincipal(principalId: string): Promise<number> {
    const result = await this.repo.delete({ principalId });
    return result.affected ?? 0;
  }
}

function contextOf(principalId: string, name: string): string {
  return `user-secret:${principalId}:${name}`;
}

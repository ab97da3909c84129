import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SealedValue } from '../../../shared/crypto/secret-cipher.js';

@Entity({ name: 'user_secrets' })
export class UserSecretOrmEntity {
  @PrimaryColumn('text', { name: 'principal_id' }) principalId!: string;
  @PrimaryColumn('text') name!: string;
  @Column('jsonb') sealed!: SealedValue;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

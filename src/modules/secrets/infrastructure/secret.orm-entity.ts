import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SealedValue } from '../../../shared/crypto/secret-cipher.js';

@Entity({ name: 'secrets' })
export class SecretOrmEntity {
  @PrimaryColumn('text') name!: string;
  @Column('jsonb') sealed!: SealedValue;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

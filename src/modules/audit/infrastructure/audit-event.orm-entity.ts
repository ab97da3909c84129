import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'audit_events' })
export class AuditEventOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('timestamptz', { name: 'occurred_at' }) occurredAt!: Date;
  @Column('text') actor!: string;
  @Column('text') action!: string;
  @Column('text', { name: 'target_type' }) targetType!: string;
  @Column('text', { name: 'target_id', nullable: true }) targetId!: string | null;
  @Column('text', { name: 'target_name', nullable: true }) targetName!: string | null;
  @Column('jsonb') details!: Record<string, unknown>;
  @Column('bigint') seq!: string;
  @Column('text', { name: 'prev_hash', nullable: true }) prevHash!: string | null;
  @Column('text', { nullable: true }) hash!: string | null;
  @Column('text', { nullable: true }) signature!: string | null;
  @Column('text', { name: 'key_id', nullable: true }) keyId!: string | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId!: string | null;
  @Column('text', { name: 'client_address', nullable: true }) clientAddress!: string | null;
}

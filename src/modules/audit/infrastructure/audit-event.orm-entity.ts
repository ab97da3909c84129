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
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ToolStatus } from '../domain/source-tool.js';

@Entity({ name: 'source_tools' })
export class SourceToolOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'source_id' }) sourceId!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'qualified_name' }) qualifiedName!: string;
  @Column('text', { nullable: true }) title!: string | null;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('jsonb', { name: 'input_schema' }) inputSchema!: Record<string, unknown>;
  @Column('jsonb', { name: 'output_schema', nullable: true }) outputSchema!: Record<string, unknown> | null;
  @Column('jsonb', { nullable: true }) annotations!: Record<string, unknown> | null;
  @Column('text', { name: 'unusable_reason', nullable: true }) unusableReason!: string | null;
  @Column('text', { name: 'definition_hash' }) definitionHash!: string;
  @Column('text') status!: ToolStatus;
  @Column('boolean') enabled!: boolean;
  @Column('timestamptz', { name: 'first_seen_at' }) firstSeenAt!: Date;
  @Column('timestamptz', { name: 'last_seen_at' }) lastSeenAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'retired_at', nullable: true }) retiredAt!: Date | null;
}

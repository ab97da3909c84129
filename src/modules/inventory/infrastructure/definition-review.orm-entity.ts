import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DefinitionFinding } from '../domain/definition-scan/index.js';
import type { ReviewState } from '../domain/pinning/definition-review.js';

@Entity({ name: 'definition_reviews' })
export class DefinitionReviewOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'tool_id' }) toolId!: string;
  @Column('uuid', { name: 'source_id' }) sourceId!: string;
  @Column('text', { name: 'source_name' }) sourceName!: string;
  @Column('text', { name: 'tool_name' }) toolName!: string;
  @Column('text', { name: 'qualified_name' }) qualifiedName!: string;
  @Column('text', { name: 'definition_hash' }) definitionHash!: string;
  /** As declared (`json`: the key order is kept). */
  @Column('json') definition!: Record<string, unknown>;
  @Column('text', { name: 'previous_hash', nullable: true }) previousHash!: string | null;
  @Column('json', { name: 'previous_definition', nullable: true }) previousDefinition!: Record<string, unknown> | null;
  @Column('jsonb') changes!: string[];
  @Column('jsonb') findings!: DefinitionFinding[];
  @Column('text') state!: ReviewState;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'decided_at', nullable: true }) decidedAt!: Date | null;
  @Column('text', { name: 'decided_by', nullable: true }) decidedBy!: string | null;
  @Column('text', { nullable: true }) comment!: string | null;
}

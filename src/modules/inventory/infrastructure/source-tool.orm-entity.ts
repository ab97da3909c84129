import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DefinitionFinding } from '../domain/definition-scan/index.js';
import type { ToolReviewState } from '../domain/pinning/pinning.js';
import type { ToolStatus } from '../domain/tool-definition.js';

@Entity({ name: 'source_tools' })
export class SourceToolOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'source_id' }) sourceId!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'qualified_name' }) qualifiedName!: string;
  @Column('text', { nullable: true }) title!: string | null;
  @Column('text', { nullable: true }) description!: string | null;
  /** The tool object as its upstream declared it (`json`: the key order is kept); its schemas are read from here. */
  @Column('json') definition!: Record<string, unknown>;
  /** Hash of the definition as declared, key order included (definition_hash is over a canonical form). */
  @Column('text', { name: 'declared_hash' }) declaredHash!: string;
  @Column('jsonb', { nullable: true }) annotations!: Record<string, unknown> | null;
  @Column('text', { name: 'unusable_reason', nullable: true }) unusableReason!: string | null;
  /** Where the upstream lists the tool in its tools/list (0 first); null until a refresh has seen it since this was kept. */
  @Column('integer', { name: 'list_position', nullable: true }) listPosition!: number | null;
  @Column('text', { name: 'definition_hash' }) definitionHash!: string;
  @Column('text') status!: ToolStatus;
  @Column('boolean') enabled!: boolean;
  @Column('text', { name: 'review_state' }) reviewState!: ToolReviewState;
  @Column('text', { name: 'approved_hash', nullable: true }) approvedHash!: string | null;
  /** The last approved definition as declared (`json`: the key order is kept). */
  @Column('json', { name: 'approved_definition', nullable: true }) approvedDefinition!: Record<string, unknown> | null;
  @Column('jsonb', { name: 'scan_findings' }) findings!: DefinitionFinding[];
  @Column('timestamptz', { name: 'first_seen_at' }) firstSeenAt!: Date;
  @Column('timestamptz', { name: 'last_seen_at' }) lastSeenAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'retired_at', nullable: true }) retiredAt!: Date | null;
}

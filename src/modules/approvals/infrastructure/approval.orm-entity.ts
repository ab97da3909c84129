import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SealedValue } from '../../../shared/crypto/secret-cipher.js';
import type { ExecutionCaller } from '../../executions/domain/execution.js';
import type { ApprovalStatus, Approvers, Decider } from '../domain/approval.js';

@Entity({ name: 'approvals' })
export class ApprovalOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'execution_id' }) executionId!: string;
  @Column('text') interceptor!: string;
  @Column('text', { name: 'qualified_name' }) qualifiedName!: string;
  @Column('text', { name: 'source_name' }) sourceName!: string;
  @Column('text', { name: 'group_name', nullable: true }) groupName!: string | null;
  @Column('jsonb') caller!: ExecutionCaller;
  @Column('text', { name: 'caller_principal' }) callerPrincipal!: string;
  @Column('text') channel!: 'rest' | 'mcp';
  /** Redacted, for display. */
  @Column('jsonb', { nullable: true }) arguments!: unknown;
  @Column('text', { name: 'arguments_hash' }) argumentsHash!: string;
  /** The exact input, caller and channel, sealed (AES-256-GCM; the approval's id bound in). */
  @Column('jsonb', { name: 'sealed_input' }) sealedInput!: SealedValue;
  @Column('text', { name: 'tool_description', nullable: true }) toolDescription!: string | null;
  @Column('jsonb', { name: 'tool_annotations', nullable: true }) toolAnnotations!: Record<string, unknown> | null;
  @Column('text', { nullable: true }) message!: string | null;
  @Column('jsonb') approvers!: Approvers;
  @Column('text') status!: ApprovalStatus;
  @Column('jsonb', { name: 'decided_by', nullable: true }) decidedBy!: Decider | null;
  @Column('text', { nullable: true }) comment!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'decided_at', nullable: true }) decidedAt!: Date | null;
}

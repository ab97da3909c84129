import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ExecutionCaller, ExecutionError, ExecutionResult, InterceptorRun } from '../domain/execution.js';

/** One row of `executions`; written by the group-commit recorder, read by the execution queries. */
@Entity({ name: 'executions' })
export class ExecutionOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'tool_id', nullable: true }) toolId!: string | null;
  @Column('text', { name: 'qualified_name' }) qualifiedName!: string;
  @Column('uuid', { name: 'source_id', nullable: true }) sourceId!: string | null;
  @Column('text', { name: 'source_name', nullable: true }) sourceName!: string | null;
  @Column('text', { name: 'definition_hash', nullable: true }) definitionHash!: string | null;
  @Column('jsonb') caller!: ExecutionCaller;
  @Column('text', { name: 'caller_principal' }) callerPrincipal!: string;
  @Column('text') channel!: string;
  @Column('jsonb') arguments!: unknown;
  @Column('text') status!: string;
  @Column('boolean', { name: 'is_error' }) isError!: boolean;
  @Column('jsonb', { nullable: true }) result!: ExecutionResult | null;
  @Column('jsonb', { nullable: true }) error!: ExecutionError | null;
  @Column('integer') attempts!: number;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('double precision', { name: 'duration_ms' }) durationMs!: number;
  @Column('text', { name: 'trace_id', nullable: true }) traceId!: string | null;
  @Column('text', { name: 'group_name', nullable: true }) groupName!: string | null;
  @Column('jsonb', { nullable: true }) interceptors!: InterceptorRun[] | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { InterceptorKind, InterceptorOnError, InterceptorPhase, InterceptorScope } from '../domain/interceptor.js';

@Entity({ name: 'interceptors' })
export class InterceptorOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text') kind!: InterceptorKind;
  @Column('text') phase!: InterceptorPhase;
  @Column('integer') order!: number;
  @Column('jsonb') scope!: InterceptorScope;
  /** The kind's own fields. */
  @Column('jsonb') settings!: Record<string, unknown>;
  @Column('text', { name: 'on_error' }) onError!: InterceptorOnError;
  @Column('integer', { name: 'timeout_ms' }) timeoutMs!: number;
  @Column('boolean') enabled!: boolean;
  @Column('text') description!: string;
  @Column('integer') version!: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('text', { name: 'created_by' }) createdBy!: string;
  @Column('text', { name: 'updated_by' }) updatedBy!: string;
}

import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { Clock, IdGenerator } from '../../../shared/unit-of-work.js';
import { AuditEvent, AuditLog } from '../domain/audit-event.js';
import { AuditEventOrmEntity } from './audit-event.orm-entity.js';

export class TypeormAuditLog extends AuditLog {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {
    super();
  }

  async record(event: Omit<AuditEvent, 'id' | 'occurredAt'>): Promise<void> {
    await this.uow.manager().insert(AuditEventOrmEntity, { ...event, id: this.ids.next(), occurredAt: this.clock.now() } as QueryDeepPartialEntity<AuditEventOrmEntity>);
  }
}

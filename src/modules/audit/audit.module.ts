import { Module } from '@nestjs/common';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { Clock, IdGenerator } from '../../shared/unit-of-work.js';
import { ListAuditEventsHandler } from './application/list-audit-events/list-audit-events.handler.js';
import { AuditLog } from './domain/audit-event.js';
import { TypeormAuditLog } from './infrastructure/typeorm-audit-log.js';
import { AuditEventsController } from './interface/audit-events.controller.js';

@Module({
  controllers: [AuditEventsController],
  providers: [
    { provide: AuditLog, useFactory: (uow: TypeormUnitOfWork, clock: Clock, ids: IdGenerator) => new TypeormAuditLog(uow, clock, ids), inject: [TypeormUnitOfWork, Clock, IdGenerator] },
    ListAuditEventsHandler,
  ],
  exports: [AuditLog],
})
export class AuditModule {}

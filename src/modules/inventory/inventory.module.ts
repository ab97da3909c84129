import { Module } from '@nestjs/common';
import { SourceToolOrmEntity } from './infrastructure/source-tool.orm-entity.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { GetToolHandler } from './application/get-tool/get-tool.handler.js';
import { SetToolEnabledHandler } from './application/set-tool-enabled/set-tool-enabled.handler.js';
import { InventorySync } from './application/sync-inventory/inventory-sync.js';
import { ToolViews } from './application/tool-views.js';
import { SourceToolRepository } from './domain/source-tool.repository.js';
import { TypeormSourceToolRepository } from './infrastructure/typeorm-source-tool.repository.js';
import { TypeormToolViews } from './infrastructure/typeorm-tool-views.js';
import { ToolsController } from './interface/tools.controller.js';

@Module({
  imports: [AuditModule],
  controllers: [ToolsController],
  providers: [
    { provide: SourceToolRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormSourceToolRepository(uow), inject: [TypeormUnitOfWork] },
    { provide: ToolViews, useFactory: (uow: TypeormUnitOfWork) => new TypeormToolViews(uow), inject: [TypeormUnitOfWork] },
    InventorySync,
    GetToolHandler,
    SetToolEnabledHandler,
  ],
  exports: [InventorySync],
})
export class InventoryModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [SourceToolOrmEntity];
}

import { Module } from '@nestjs/common';
import { SourceToolOrmEntity } from './infrastructure/source-tool.orm-entity.js';
import { DefinitionReviewOrmEntity } from './infrastructure/definition-review.orm-entity.js';
import { DefinitionReviewRepository } from './domain/pinning/definition-review.repository.js';
import { TypeormDefinitionReviewRepository } from './infrastructure/typeorm-definition-review.repository.js';
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
import { ReviewsController } from './interface/reviews.controller.js';
import { ReviewViews } from './application/review-views.js';
import { TypeormReviewViews } from './infrastructure/typeorm-review-views.js';
import { ListReviewsHandler } from './application/list-reviews/list-reviews.handler.js';
import { GetReviewHandler } from './application/get-review/get-review.handler.js';
import { DecideReviewHandler } from './application/decide-review/decide-review.handler.js';

@Module({
  imports: [AuditModule],
  controllers: [ToolsController, ReviewsController],
  providers: [
    { provide: SourceToolRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormSourceToolRepository(uow), inject: [TypeormUnitOfWork] },
    { provide: DefinitionReviewRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormDefinitionReviewRepository(uow), inject: [TypeormUnitOfWork] },
    { provide: ToolViews, useFactory: (uow: TypeormUnitOfWork) => new TypeormToolViews(uow), inject: [TypeormUnitOfWork] },
    InventorySync,
    GetToolHandler,
    SetToolEnabledHandler,
    { provide: ReviewViews, useFactory: (uow: TypeormUnitOfWork) => new TypeormReviewViews(uow), inject: [TypeormUnitOfWork] },
    ListReviewsHandler,
    GetReviewHandler,
    DecideReviewHandler,
  ],
  exports: [InventorySync, ToolViews],
})
export class InventoryModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [SourceToolOrmEntity, DefinitionReviewOrmEntity];
}

import { Module } from '@nestjs/common';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { CatalogReader } from './application/catalog-reader.js';
import { CatalogVersions } from './application/catalog-versions.js';
import { SearchCatalogHandler } from './application/search-catalog/search-catalog.handler.js';
import { SqlCatalogReader } from './infrastructure/sql-catalog-reader.js';
import { CatalogController } from './interface/catalog.controller.js';

/** The agents' read side: `GET /api/v1/tools` (search, filters, LLM formats, ETag). */
@Module({
  controllers: [CatalogController],
  providers: [
    { provide: CatalogReader, useFactory: (uow: TypeormUnitOfWork) => new SqlCatalogReader(uow), inject: [TypeormUnitOfWork] },
    CatalogVersions,
    SearchCatalogHandler,
  ],
})
export class CatalogModule {}

import { Module } from '@nestjs/common';
import { DATABASE, type Database } from '../../shared/database/database.js';
import { CatalogReader } from './application/catalog-reader.js';
import { CatalogSnapshots } from './application/catalog-snapshots.js';
import { GroupViews } from './application/group-views.js';
import { GroupsModule } from '../groups/groups.module.js';
import { SearchCatalogHandler } from './application/search-catalog/search-catalog.handler.js';
import { SqlCatalogReader } from './infrastructure/sql-catalog-reader.js';
import { GroupToolsController } from './interface/group-tools.controller.js';
import { GroupPreviewController } from './interface/group-preview.controller.js';
import { PreviewGroupHandler } from './application/preview-group/preview-group.handler.js';
import { CatalogController } from './interface/catalog.controller.js';
import { PrincipalConnections } from './application/principal-connections.js';
import { SqlPrincipalConnections } from './infrastructure/sql-principal-connections.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

/**
 * The agents' read model: one snapshot of the catalog (CatalogSnapshots), which `GET /api/v1/tools`
 * (search, filters, LLM formats, ETag), the MCP endpoints and the routes of calls read; and the
 * groups' views of it (GroupViews).
 */
@Module({
  imports: [GroupsModule],
  controllers: [CatalogController, GroupPreviewController, GroupToolsController],
  providers: [
    { provide: CatalogReader, useFactory: (db: Database) => new SqlCatalogReader(db.dataSource), inject: [DATABASE] },
    { provide: PrincipalConnections, useFactory: (db: Database, config: AppConfig) => new SqlPrincipalConnections(db.dataSource, config.publicUrl), inject: [DATABASE, APP_CONFIG] },
    CatalogSnapshots,
    GroupViews,
    SearchCatalogHandler,
    PreviewGroupHandler,
  ],
  exports: [CatalogSnapshots, GroupViews, PrincipalConnections],
})
export class CatalogModule {}

import { Module } from '@nestjs/common';
import { DATABASE } from '../../shared/database/database.js';
import type { Database } from '../../shared/database/database.js';
import { AccessModule } from '../access/access.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { InterceptorsModule } from '../interceptors/interceptors.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { SourcesModule } from '../sources/sources.module.js';
import { ApplyConfigHandler } from './application/apply-config/apply-config.handler.js';
import { ConfigPlanner } from './application/apply-config/config-planner.js';
import { GroupPlanner } from './application/apply-config/group-planner.js';
import { InterceptorPlanner } from './application/apply-config/interceptor-planner.js';
import { KeyPlanner } from './application/apply-config/key-planner.js';
import { ExportConfigHandler } from './application/export-config/export-config.handler.js';
import { ConfigApplyLock } from './domain/cluster-lock.js';
import { AdvisoryConfigLock } from './infrastructure/advisory-config-lock.js';
import { ConfigController } from './interface/config.controller.js';
import { ConfigFileApplier } from './interface/config-file-applier.js';

/** Configuration as code: sources, tool groups, interceptors and API keys declared in a file, applied, diffed and exported. */
@Module({
  imports: [AuditModule, SourcesModule, AccessModule, SecretsModule, GroupsModule, InterceptorsModule],
  controllers: [ConfigController],
  providers: [
    { provide: ConfigApplyLock, useFactory: (db: Database) => new AdvisoryConfigLock(db.dataSource), inject: [DATABASE] },
    ConfigPlanner,
    GroupPlanner,
    InterceptorPlanner,
    KeyPlanner,
    ApplyConfigHandler,
    ExportConfigHandler,
    ConfigFileApplier,
  ],
})
export class ConfigurationModule {}

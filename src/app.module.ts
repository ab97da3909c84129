import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from './config/app-config.js';
import { AccessModule } from './modules/access/access.module.js';
import { ADMIN_KEY, AuthGuard } from './modules/access/interface/auth.guard.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { ExecutionsModule } from './modules/executions/executions.module.js';
import { CatalogModule } from './modules/catalog/catalog.module.js';
import { ExecutionModule } from './modules/execution/execution.module.js';
import { InventoryModule } from './modules/inventory/inventory.module.js';
import { GroupsModule } from './modules/groups/groups.module.js';
import { InterceptorsModule } from './modules/interceptors/interceptors.module.js';
import { SecretsModule } from './modules/secrets/secrets.module.js';
import { SourcesModule } from './modules/sources/sources.module.js';
import { EventLoopWatch } from './ops/event-loop-watch.js';
import { HealthController } from './ops/health.controller.js';
import { MetricsModule } from './ops/metrics/metrics.module.js';
import { TracingModule } from './ops/tracing/tracing.module.js';
import { CatalogNotificationsModule } from './shared/catalog-notifications.module.js';
import { CoreModule } from './core.module.js';
import type { Entities } from './shared/database/database.js';
import { DomainErrorFilter } from './shared/http/domain-error.filter.js';
import { ApprovalsModule } from './modules/approvals/approvals.module.js';
import { ConfigurationModule } from './modules/configuration/configuration.module.js';
import { ConnectionsModule } from './modules/connections/connections.module.js';
import { McpServerModule } from './modules/mcp-server/mcp-server.module.js';
import { UpstreamModule } from './upstream/upstream.module.js';

/** The bounded contexts, in the order Nest starts them (and stops them in reverse). */
const FEATURES = [
  AuditModule,
  ExecutionsModule,
  AccessModule,
  SecretsModule,
  InventoryModule,
  GroupsModule,
  CatalogModule,
  SourcesModule,
  ConnectionsModule,
  InterceptorsModule,
  ExecutionModule,
  ApprovalsModule,
  ConfigurationModule,
  McpServerModule,
];

/** The tables every module maps: each declares its own (`static entities`). */
export const ENTITIES: Entities = FEATURES.flatMap((feature) => ('entities' in feature ? (feature.entities as Entities) : []));

/** The composition root: the only module that sees every other. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, adminKey: string): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(config, ENTITIES), CqrsModule.forRoot(), CatalogNotificationsModule, MetricsModule, TracingModule, UpstreamModule, ...FEATURES],
      controllers: [HealthController],
      providers: [
        { provide: ADMIN_KEY, useValue: adminKey },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: DomainErrorFilter },
        EventLoopWatch,
      ],
    };
  }
}

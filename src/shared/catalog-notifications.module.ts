import { Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CatalogChangeNotifier, CatalogChanged, GroupsChanged, InterceptorsChanged } from './catalog-events.js';
import { DATABASE } from './database/database.js';
import type { Database } from './database/database.js';
import { CatalogNotificationListener, PgCatalogChangeNotifier, PgSessionNotices, PgTaskChanges } from './database/catalog-notifications.js';
import { SessionNotices } from './session-notices.js';
import { TaskChanges } from './task-changes.js';
import { TypeormUnitOfWork } from './database/typeorm-unit-of-work.js';

/** Names this process in its notices, so that it can skip its own. */
const INSTANCE_ID = Symbol('INSTANCE_ID');

/**
 * Republishes the catalog, group and interceptor changes other processes announce as (remote)
 * CatalogChanged, GroupsChanged and InterceptorsChanged events here, their task changes to
 * TaskChanges and their session notices to SessionNotices.
 */
@Injectable()
class CatalogChangeRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly listener: CatalogNotificationListener;

  constructor(@Inject(DATABASE) database: Database, @Inject(INSTANCE_ID) instanceId: string, @Inject(EventBus) events: EventBus, @Inject(TaskChanges) tasks: TaskChanges,
    @Inject(SessionNotices) sessions: SessionNotices,
  ) {
    const logger = new Logger('catalog-notifications');
    this.listener = new CatalogNotificationListener({
      url: database.url,
      instanceId,
      onChange: (sourceId) => events.publish(new CatalogChanged(sourceId, true)),
      onGroupChange: (name) => events.publish(new GroupsChanged(name, true)),
      onInterceptorChange: (name) => events.publish(new InterceptorsChanged(name, true)),
      onTaskChange: (taskId) => tasks.heard(taskId),
      onSessionNotice: (sessionId, body) => sessions.heard(sessionId, body),
      onResync: () => {
        tasks.heardAll();
        events.publish(new CatalogChanged(undefined, true));
        events.publish(new GroupsChanged(undefined, true));
        events.publish(new InterceptorsChanged(undefined, true));
      },
      log: { info: (m) => logger.log(m), warn: (m) => logger.warn(m) },
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.listener.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.listener.stop();
  }
}

/** Catalog changes and task changes travel between the Toolplane processes of one database (PostgreSQL LISTEN/NOTIFY). */
@Global()
@Module({
  providers: [
    { provide: INSTANCE_ID, useFactory: () => randomUUID() },
    {
      provide: CatalogChangeNotifier,
      useFactory: (uow: TypeormUnitOfWork, instanceId: string) => new PgCatalogChangeNotifier(uow, instanceId),
      inject: [TypeormUnitOfWork, INSTANCE_ID],
    },
    { provide: TaskChanges, useFactory: (database: Database, instanceId: string) => new PgTaskChanges(database.dataSource, instanceId), inject: [DATABASE, INSTANCE_ID] },
    { provide: SessionNotices, useFactory: (database: Database, instanceId: string) => new PgSessionNotices(database.dataSource, instanceId), inject: [DATABASE, INSTANCE_ID] },
    CatalogChangeRelay,
  ],
  exports: [CatalogChangeNotifier, TaskChanges, SessionNotices],
})
export class CatalogNotificationsModule {}

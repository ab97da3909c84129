import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { adminQuery, testServerUrl, withDatabase } from '../../../test/helpers/test-database.js';
import { CatalogNotificationListener, PgCatalogChangeNotifier, decodeCatalogNotice, encodeCatalogNotice } from './catalog-notifications.js';
import { TypeormUnitOfWork } from './typeorm-unit-of-work.js';

const until = async (condition: () => boolean, withinMs = 5000) => {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('catalog notices', () => {
  it('carry the origin and the source, a group, an interceptor, or only the origin', () => {
    expect(decodeCatalogNotice(encodeCatalogNotice({ origin: 'a', sourceId: 's-1' }))).toEqual({ origin: 'a', sourceId: 's-1' });
    expect(decodeCatalogNotice(encodeCatalogNotice({ origin: 'a', groupName: 'support-bot' }))).toEqual({ origin: 'a', groupName: 'support-bot' });
    expect(decodeCatalogNotice(encodeCatalogNotice({ origin: 'a', interceptorName: 'no-etc' }))).toEqual({ origin: 'a', interceptorName: 'no-etc' });
    expect(decodeCatalogNotice(encodeCatalogNotice({ origin: 'a' }))).toEqual({ origin: 'a' });
    expect(decodeCatalogNotice('')).toEqual({ origin: '' });
  });
});

describe('catalog changes between processes (LISTEN/NOTIFY on the test PostgreSQL)', () => {
  const dbName = `tp_notify_${randomBytes(4).toString('hex')}`;
  let url: string;
  let dataSource: DataSource;
  let uow: TypeormUnitOfWork;
  const listeners: CatalogNotificationListener[] = [];

  const listen = async (instanceId: string) => {
    const changes: (string | undefined)[] = [];
    let resyncs = 0;
    const listener = new CatalogNotificationListener({
      url,
      instanceId,
      onChange: (sourceId) => changes.push(sourceId),
      onResync: () => resyncs++,
      log: { info: () => undefined, warn: () => undefined },
    });
    listeners.push(listener);
    await listener.start();
    return { listener, changes, resyncs: () => resyncs };
  };

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    url = withDatabase(testServerUrl(), dbName);
    dataSource = await new DataSource({ type: 'postgres', url }).initialize();
    uow = new TypeormUnitOfWork(dataSource);
  });

  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.stop()));
    await dataSource?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('delivers a change when its transaction commits, never one that rolls back, and skips its own', async () => {
    const other = await listen('process-b');
    const self = await listen('process-a');
    const notifier = new PgCatalogChangeNotifier(uow, 'process-a');

    await expect(
      uow.run(async () => {
        await notifier.notifyOthers('rolled-back');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    let committedAt = 0;
    await uow.run(async () => {
      await notifier.notifyOthers('source-1');
      await new Promise((r) => setTimeout(r, 200));
      expect(other.changes).toEqual([]); // not before the commit
      committedAt = Date.now();
    });
    await until(() => other.changes.length > 0);
    expect(Date.now() - committedAt).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(other.changes).toEqual(['source-1']);
    expect(self.changes).toEqual([]);
  });

  it('reconnects after losing its connection and reports that anything may have changed', async () => {
    const other = await listen('process-c');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'toolplane-listen' AND datname = current_database()");
      await until(() => other.resyncs() > 0 && other.listener.listening);
      await new PgCatalogChangeNotifier(uow, 'process-d').notifyOthers('source-2');
      await until(() => other.changes.includes('source-2'));
    } finally {
      await admin.end();
    }
  });
});

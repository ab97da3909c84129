import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { loadConfig } from '../../../config/app-config.js';
import { CoreModule } from '../../../core.module.js';
import { DomainErrorFilter } from '../../../shared/http/domain-error.filter.js';
import { ExecutionRecord, ExecutionRecorder } from '../domain/execution.js';
import { ExecutionsModule } from '../executions.module.js';
import { MetricsModule } from '../../../ops/metrics/metrics.module.js';
import { adminQuery as admin, withDatabase } from '../../../../test/helpers/test-database.js';

const SERVER_URL = process.env.TOOLPLANE_TEST_DATABASE_URL!;


function execution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    id: randomUUID(),
    toolId: randomUUID(),
    qualifiedName: 'files__read',
    sourceId: randomUUID(),
    sourceName: 'files',
    definitionHash: 'sha256:42',
    caller: { principalId: 'key_admin', principalName: 'admin' },
    channel: 'rest',
    arguments: { path: 'a.txt' },
    status: 'succeeded',
    isError: false,
    result: { content: [{ type: 'text', text: 'A' }], truncated: false, originalBytes: 20 },
    error: null,
    attempts: 1,
    startedAt: new Date(),
    durationMs: 8,
    ...overrides,
  };
}

/** The audit module alone, on the real HTTP stack (Fastify, error filter) and a real database. */
@Module({})
class AuditHttpTestModule {
  static forRoot(config: ReturnType<typeof loadConfig>): DynamicModule {
    return {
      module: AuditHttpTestModule,
      imports: [CoreModule.forRoot(config, ExecutionsModule.entities), CqrsModule.forRoot(), MetricsModule, ExecutionsModule],
      providers: [{ provide: APP_FILTER, useClass: DomainErrorFilter }],
    };
  }
}

describe('executions over HTTP (audit module in-process)', () => {
  const dbName = `tp_exh_${randomBytes(6).toString('hex')}`;
  const databaseUrl = withDatabase(SERVER_URL, dbName);
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-executions-'));
  let app: NestFastifyApplication;
  let base: string;
  let reader: pg.Client;
  const get = async (path: string) => {
    const response = await fetch(base + path);
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const config = loadConfig({ DATABASE_URL: databaseUrl, TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    app = await NestFactory.create<NestFastifyApplication>(AuditHttpTestModule.forRoot(config), new FastifyAdapter(), { logger: false, abortOnError: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    reader = new pg.Client({ connectionString: databaseUrl });
    await reader.connect();
  });

  afterAll(async () => {
    await reader?.end();
    await app?.close().catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists, pages and fetches recorded executions', async () => {
    const recorder = app.get(ExecutionRecorder);
    const t0 = Date.now() - 60_000;
    const records = Array.from({ length: 5 }, (_, i) => execution({ startedAt: new Date(t0 + i * 1000), durationMs: i }));
    await Promise.all(records.map((r) => recorder.record(r)));

    const first = await get('/api/v1/executions?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.items.map((e: any) => e.id)).toEqual([records[4]!.id, records[3]!.id, records[2]!.id]);
    const second = await get(`/api/v1/executions?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: records[1]!.id }), expect.objectContaining({ id: records[0]!.id })], nextCursor: null });

    const one = await get(`/api/v1/executions/${records[0]!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...JSON.parse(JSON.stringify(records[0])), startedAt: records[0]!.startedAt.toISOString(), traceId: null, group: null, interceptors: [] });
  });

  it('routes /stats to the statistics, not to an execution id', async () => {
    const stats = await get('/api/v1/executions/stats?groupBy=tool');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ groupBy: 'tool', until: null, groups: [expect.objectContaining({ qualifiedName: 'files__read', count: 5, p50DurationMs: 2 })] });
  });

  it('answers 404 EXECUTION_NOT_FOUND for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'nope']) {
      const response = await get(`/api/v1/executions/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('EXECUTION_NOT_FOUND');
    }
  });

  it('answers 400 with every problem of the query string', async () => {
    const bad = await get('/api/v1/executions?status=done&limit=9999&color=red');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.details.map((d: any) => d.path).sort()).toEqual(['color', 'limit', 'status']);
    const cursor = await get('/api/v1/executions?cursor=garbage!');
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe('INVALID_CURSOR');
    const stats = await get('/api/v1/executions/stats?groupBy=principal');
    expect(stats.status).toBe(400);
    expect(stats.body.error.details).toEqual([{ path: 'groupBy', message: 'must be one of tool, source, caller' }]);
  });

  it('writes every queued record on shutdown, before the database closes', async () => {
    const recorder = app.get(ExecutionRecorder);
    const records = Array.from({ length: 200 }, () => execution());
    const pending = Promise.allSettled(records.map((r) => recorder.record(r)));
    await app.close();
    expect((await pending).every((o) => o.status === 'fulfilled')).toBe(true);
    const { rows } = await reader.query('SELECT count(*)::int AS n FROM executions WHERE id = ANY($1::uuid[])', [records.map((r) => r.id)]);
    expect(rows[0].n).toBe(200);
    await expect(recorder.record(execution())).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
  });
});

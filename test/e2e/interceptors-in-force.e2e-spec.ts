import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { InterceptorsInForce } from '../../src/modules/interceptors/domain/interceptor.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';

/**
 * The interceptors in force, as the call pipeline reads them, in a second Toolplane on the same
 * database: the application built here, in this process, beside a Toolplane process whose REST
 * API makes the changes.
 */
describe('the interceptors in force, across processes', () => {
  let h: Harness;
  let other: INestApplicationContext;
  let dataDir: string;

  beforeAll(async () => {
    h = await startHarness();
    dataDir = mkdtempSync(join(tmpdir(), 'toolplane-in-force-'));
    const config = loadConfig({
      DATABASE_URL: h.databaseUrl,
      TOOLPLANE_DATA_DIR: dataDir,
      TOOLPLANE_ENCRYPTION_KEY: readFileSync(join(h.dataDir, 'encryption.key'), 'utf8').trim(),
      TOOLPLANE_REFRESH_TICK_MS: '3600000',
    });
    expect((await h.api.post('/api/v1/interceptors', { name: 'before-start', kind: 'cap', maxBytes: 1000 })).status).toBe(201);
    other = await NestFactory.createApplicationContext(AppModule.forRoot(config, h.adminKey), { logger: false, abortOnError: false });
  }, 90_000);

  afterAll(async () => {
    await other?.close();
    await h?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const inForce = () => other.get(InterceptorsInForce, { strict: false });
  const names = () => inForce().all().map((interceptor) => `${interceptor.name}@${interceptor.order}`);
  const within = async (ms: number, check: () => boolean) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  };

  it('holds what was stored before it started, and sees each change made through the other within two seconds, its version moving', async () => {
    expect(names()).toEqual(['before-start@0']);
    let version = inForce().version;

    expect((await h.api.post('/api/v1/interceptors', { name: 'no-etc', kind: 'deny', order: -1, rules: [{ argument: 'path', pathUnder: '/etc', message: 'No.' }] })).status).toBe(201);
    expect(await within(2000, () => names().join() === 'no-etc@-1,before-start@0')).toBe(true);
    expect(inForce().version).toBeGreaterThan(version);
    version = inForce().version;

    expect((await h.api.patch('/api/v1/interceptors/no-etc', { order: 5 })).status).toBe(200);
    expect(await within(2000, () => names().join() === 'before-start@0,no-etc@5')).toBe(true);
    expect(inForce().version).toBeGreaterThan(version);
    expect(inForce().all()[1]).toMatchObject({ kind: 'deny', phase: 'pre', settings: { rules: [{ argument: 'path', pathUnder: '/etc', message: 'No.' }] } });

    expect((await h.api.patch('/api/v1/interceptors/before-start', { enabled: false })).status).toBe(200);
    expect(await within(2000, () => names().join() === 'no-etc@5')).toBe(true);

    expect((await h.api.delete('/api/v1/interceptors/no-etc')).status).toBe(200);
    expect(await within(2000, () => names().length === 0)).toBe(true);
  }, 30_000);
});

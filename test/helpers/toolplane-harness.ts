import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminQuery, withDatabase } from './test-database.js';
import { spawnToolplane, type ToolplaneProcess } from './toolplane-process.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Harness {
  url: string;
  process: ToolplaneProcess;
  databaseUrl: string;
  dataDir: string;
  adminKey: string;
  api: Api;
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface Api {
  request<T = any>(method: string, path: string, body?: unknown, options?: { raw?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
}

/**
 * A real Toolplane process on a loopback port (the built `npm start` entry point), with its own
 * fresh database on the test PostgreSQL server (migrations applied at start) and data directory.
 */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const serverUrl = process.env.TOOLPLANE_TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TOOLPLANE_TEST_DATABASE_URL is not set: run the tests through jest (global setup)');
  const dbName = `tp_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${dbName}`, serverUrl);
  const databaseUrl = withDatabase(serverUrl, dbName);
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-e2e-'));
  const adminKey = `test_${randomBytes(16).toString('hex')}`;
  let toolplane: ToolplaneProcess;
  try {
    toolplane = await spawnToolplane({
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TOOLPLANE_DATA_DIR: dataDir,
      TOOLPLANE_ADMIN_KEY: adminKey,
      TOOLPLANE_REGISTRATION_WAIT_MS: '20000',
      TOOLPLANE_DISCOVERY_TIMEOUT_MS: '15000',
      TOOLPLANE_REFRESH_TICK_MS: '3600000',
      ...env,
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const api = makeApi(toolplane.url, adminKey);
  return {
    url: toolplane.url,
    process: toolplane,
    databaseUrl,
    dataDir,
    adminKey,
    api,
    sql: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    close: async () => {
      const code = await toolplane.stop();
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`, serverUrl).catch(() => undefined);
      if (code !== 0) throw new Error(`Toolplane exited with ${code} on SIGTERM:\n${toolplane.logs().slice(-4000)}`);
    },
  };
}

export function makeApi(base: string, key: string | undefined): Api {
  const request = async <T>(method: string, path: string, body?: unknown, options: { raw?: string; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await fetch(base + path, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body ?? {}),
    patch: (path, body) => request('PATCH', path, body ?? {}),
    put: (path, body) => request('PUT', path, body ?? {}),
    delete: (path) => request('DELETE', path),
  };
}


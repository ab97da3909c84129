import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  /** Another Toolplane process on the same database (same keys, its own data directory); stopped by `close` too. */
  startPeer(env?: Record<string, string>): Promise<Peer>;
  close(): Promise<void>;
}

export interface Peer {
  url: string;
  process: ToolplaneProcess;
  dataDir: string;
  api: Api;
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
 * fresh database on the test PostgreSQL server (migrations applied at start) and data directory
 * (a new temporary one unless `options.dataDir` names it; removed by `close` either way), started
 * in `options.cwd` (else this process's directory).
 */
export async function startHarness(env: Record<string, string> = {}, options: { dataDir?: string; cwd?: string } = {}): Promise<Harness> {
  const serverUrl = process.env.TOOLPLANE_TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TOOLPLANE_TEST_DATABASE_URL is not set: run the tests through jest (global setup)');
  const dbName = `tp_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${dbName}`, serverUrl);
  const databaseUrl = withDatabase(serverUrl, dbName);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'toolplane-e2e-'));
  const adminKey = `test_${randomBytes(16).toString('hex')}`;
  const settings: Record<string, string> = {
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    TOOLPLANE_ADMIN_KEY: adminKey,
    TOOLPLANE_REGISTRATION_WAIT_MS: '20000',
    TOOLPLANE_DISCOVERY_TIMEOUT_MS: '15000',
    TOOLPLANE_REFRESH_TICK_MS: '3600000',
    ...env,
  };
  let toolplane: ToolplaneProcess;
  try {
    toolplane = await spawnToolplane({ ...settings, TOOLPLANE_DATA_DIR: dataDir }, { cwd: options.cwd });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const api = makeApi(toolplane.url, adminKey);
  const peers = new Set<Peer>();
  const startPeer = async (peerEnv: Record<string, string> = {}): Promise<Peer> => {
    // The first process generated the encryption key into its data directory; every process of one database needs it.
    const encryptionKey = settings.TOOLPLANE_ENCRYPTION_KEY ?? readFileSync(join(dataDir, 'encryption.key'), 'utf8').trim();
    const peerDir = mkdtempSync(join(tmpdir(), 'toolplane-e2e-peer-'));
    let child: ToolplaneProcess;
    try {
      child = await spawnToolplane({ ...settings, TOOLPLANE_ENCRYPTION_KEY: encryptionKey, ...peerEnv, TOOLPLANE_DATA_DIR: peerDir });
    } catch (error) {
      rmSync(peerDir, { recursive: true, force: true });
      throw error;
    }
    const peer: Peer = {
      url: child.url,
      process: child,
      dataDir: peerDir,
      api: makeApi(child.url, adminKey),
      close: async () => {
        peers.delete(peer);
        const code = await child.stop();
        rmSync(peerDir, { recursive: true, force: true });
        if (code !== 0) throw new Error(`Toolplane (peer) exited with ${code} on SIGTERM:\n${child.logs().slice(-4000)}`);
      },
    };
    peers.add(peer);
    return peer;
  };
  return {
    url: toolplane.url,
    process: toolplane,
    databaseUrl,
    dataDir,
    adminKey,
    api,
    sql: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    startPeer,
    close: async () => {
      const peerExits = await Promise.allSettled([...peers].map((peer) => peer.close()));
      const code = await toolplane.stop();
      // end() resolves before its sessions have closed, and the DROP … WITH (FORCE) below may end
      // one first: the error that session then reports is expected.
      pool.on('error', () => undefined);
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`, serverUrl).catch(() => undefined);
      if (code !== 0) throw new Error(`Toolplane exited with ${code} on SIGTERM:\n${toolplane.logs().slice(-4000)}`);
      for (const exit of peerExits) if (exit.status === 'rejected') throw exit.reason;
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


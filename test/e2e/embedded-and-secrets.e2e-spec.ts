import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeApi } from '../helpers/toolplane-harness.js';
import { spawnToolplane, type ToolplaneProcess } from '../helpers/toolplane-process.js';
import { EVERYTHING } from '../helpers/upstreams.js';

const SECRET_VALUE = 'pl41nt3xt-n3v3r-st0r3d-' + 'x'.repeat(8);
const LITERAL_HEADER = 'Bearer literal-header-value-9f8e7d';

/** Every file under `dir` that contains `needle` (binary-safe). */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const bytes = Buffer.from(needle);
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      const info = statSync(full, { throwIfNoEntry: false });
      if (!info) continue;
      if (info.isDirectory()) walk(full);
      else if (info.isFile() && readFileSync(full).includes(bytes)) found.push(full);
    }
  };
  walk(dir);
  return found;
}

describe('the embedded database and the secrets store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-embedded-'));
  // No DATABASE_URL: exactly what `npm start` does on a fresh machine.
  const env = { TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_REFRESH_TICK_MS: '3600000' };
  let toolplane: ToolplaneProcess | undefined;
  let logs = '';

  afterAll(async () => {
    await toolplane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on an embedded PostgreSQL with generated keys, and keeps secrets write-only', async () => {
    toolplane = await spawnToolplane(env);
    console.log(`embedded start to ready: ${toolplane.readyMs} ms (first start, initdb included)`);
    const key = readFileSync(join(dataDir, 'admin.key'), 'utf8').trim();
    expect(statSync(join(dataDir, 'admin.key')).mode & 0o077).toBe(0);
    expect(statSync(join(dataDir, 'encryption.key')).mode & 0o077).toBe(0);
    const api = makeApi(toolplane.url, key);

    const put = await api.put('/api/v1/secrets/API_TOKEN', { value: SECRET_VALUE });
    expect(put.status).toBe(201);
    expect(put.body).toEqual({ name: 'API_TOKEN', createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect((await api.put('/api/v1/secrets/API_TOKEN', { value: SECRET_VALUE })).status).toBe(200);
    for (const bad of [{}, { value: 5 }, { value: '' }, { value: 'x', extra: 1 }]) {
      const response = await api.put('/api/v1/secrets/OTHER', bad);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await api.put('/api/v1/secrets/bad name!', { value: 'x' })).body.error.details[0].path).toBe('name');

    const listed = await api.get('/api/v1/secrets');
    expect(listed.body.items).toEqual([{ name: 'API_TOKEN', createdAt: expect.any(String), updatedAt: expect.any(String) }]);

    const source = await api.post('/api/v1/sources?wait=false', {
      name: 'with-secrets',
      transport: 'stdio',
      command: 'node',
      args: [EVERYTHING, 'stdio'],
      env: { API_TOKEN: '${secret:API_TOKEN}', PLAIN: 'not-declared-literal' },
      refreshIntervalSeconds: 0,
    });
    expect(source.status).toBe(201);
    const remote = await api.post('/api/v1/sources?wait=false', {
      name: 'remote-literal',
      transport: 'streamable-http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: LITERAL_HEADER },
      refreshIntervalSeconds: 0,
    });
    expect(remote.status).toBe(201);
    for (const body of [source.body, remote.body, (await api.get('/api/v1/sources')).body, (await api.get('/api/v1/audit-events')).body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain(SECRET_VALUE);
      expect(text).not.toContain(LITERAL_HEADER);
      expect(text).not.toContain('not-declared-literal');
    }
    expect(source.body.env).toEqual([
      { name: 'API_TOKEN', origin: 'reference', references: ['secret:API_TOKEN'], declared: false, isSecret: false, isRequired: false },
      { name: 'PLAIN', origin: 'literal', references: [], declared: false, isSecret: false, isRequired: false },
    ]);
    // A secret in use may still be deleted; the source then reports it at its next connection.
    expect((await api.delete('/api/v1/secrets/NOPE')).status).toBe(404);
  });

  it('writes no secret value in plaintext anywhere under the data directory or the logs, and survives a restart', async () => {
    expect(await toolplane!.stop()).toBe(0);
    logs += toolplane!.logs();
    expect(logs).toContain('Toolplane ready on');
    for (const value of [SECRET_VALUE, LITERAL_HEADER, 'not-declared-literal']) expect(logs).not.toContain(value);
    // Flushed and stopped: every page and WAL segment is on disk now.
    expect(filesContaining(dataDir, SECRET_VALUE)).toEqual([]);
    expect(filesContaining(dataDir, LITERAL_HEADER)).toEqual([]);
    expect(filesContaining(dataDir, 'not-declared-literal')).toEqual([]);

    toolplane = await spawnToolplane(env);
    console.log(`embedded restart to ready: ${toolplane.readyMs} ms`);
    const api = makeApi(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
    const sources = await api.get('/api/v1/sources');
    expect(sources.body.items.map((s: { name: string }) => s.name)).toEqual(['remote-literal', 'with-secrets']);
    expect((await api.get('/api/v1/secrets')).body.items).toHaveLength(1);
  });

  it('reaches its PostgreSQL over a Unix socket in the cluster directory, which only the cluster user can enter', async () => {
    const clusterDir = join(dataDir, 'postgres');
    // postmaster.pid: pid, data directory, start time, port, socket directory, listen address, …
    const [pid, , , port, socketDir, listenAddress] = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    expect(socketDir).toBe(clusterDir);
    expect(listenAddress).toBe('127.0.0.1');
    expect(statSync(join(clusterDir, `.s.PGSQL.${port}`)).isSocket()).toBe(true);
    expect(statSync(clusterDir).mode & 0o077).toBe(0);
    // A backend names its client in its process title: "[local]" over the socket, "127.0.0.1(port)" over TCP.
    const titles = execFileSync('ps', ['-o', 'args=', '--ppid', pid!], { encoding: 'utf8' })
      .split('\n')
      .filter((title) => title.startsWith('postgres: toolplane toolplane '));
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.filter((title) => !title.includes(' [local] '))).toEqual([]);
  });

  it('runs PostgreSQL as an unprivileged user and leaves no server behind on close', async () => {
    const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const user = execFileSync('ps', ['-o', 'user=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    expect(user).not.toBe('root');
    expect(await toolplane!.stop()).toBe(0);
    toolplane = undefined;
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { makeApi, type Api } from '../helpers/toolplane-harness.js';
import { expectNoProcesses, processesMatching, SUITE_TAG } from '../helpers/processes.js';
import { spawnToolplane, type ToolplaneProcess } from '../helpers/toolplane-process.js';
import { FIXTURES, ROOT } from '../helpers/upstreams.js';

const HOSTILE = resolve(FIXTURES, 'hostile-server.mjs');
const FILESYSTEM = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const SANDBOX_UID = 65534;
const isRoot = process.getuid?.() === 0;

/**
 * Plugins run under bubblewrap (TOOLPLANE_SANDBOX=required, so the test fails rather than passes
 * unsandboxed). The data directory lies outside /tmp, so that hiding it is the data-dir tmpfs's
 * doing, not the private /tmp's; no DATABASE_URL: the embedded cluster's credentials live there too.
 */
describe('the plugin sandbox', () => {
  // /var/tmp: persistent, shared, not replaced by the sandbox's private /tmp.
  const dataDir = mkdtempSync('/var/tmp/toolplane-sandbox-');
  const env = { TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_REFRESH_TICK_MS: '3600000', TOOLPLANE_SANDBOX: 'required', HOST: '127.0.0.1' };
  let toolplane: ToolplaneProcess | undefined;
  let api: Api;
  let tagCounter = 0;
  const tag = () => `${SUITE_TAG}-grandchild-${++tagCounter}`;

  const register = async (name: string, tools: string, extra: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v1/sources', {
      name,
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [HOSTILE, SUITE_TAG],
      env: { HOSTILE_TOOLS: tools },
      ...extra,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ health: 'healthy' });
    return response.body;
  };
  const invoke = async (tool: string, args: Record<string, unknown>) => {
    const response = await api.post(`/api/v1/tools/${tool}/invoke`, { arguments: args });
    expect(response.status).toBe(200);
    return response.body.result;
  };
  /** Host processes whose command line carries `marker` (the pid a plugin sees is its namespace's). */
  const running = (marker: string) => processesMatching(marker).filter((line) => !line.includes('bwrap'));

  beforeAll(async () => {
    toolplane = await spawnToolplane(env);
    api = makeApi(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
  }, 90_000);

  afterAll(async () => {
    await toolplane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await expectNoProcesses([SUITE_TAG]);
  });

  it('says at start that plugins are sandboxed, as the unprivileged user when Toolplane is root', () => {
    expect(toolplane!.logs()).toContain(`stdio plugins run in a bubblewrap sandbox ${isRoot ? `as uid ${SANDBOX_UID}` : "as Toolplane's own user"}`);
  });

  it("hides Toolplane's processes, environment, keys and database credentials from a plugin", async () => {
    for (const file of ['admin.key', 'encryption.key', 'postgres.credentials']) expect(existsSync(join(dataDir, file))).toBe(true);
    // A world-readable file too: only the tmpfs over the data directory can hide it from any user.
    writeFileSync(join(dataDir, 'world-readable.txt'), 'visible to anyone who can see it');
    chmodSync(join(dataDir, 'world-readable.txt'), 0o644);
    await register('peek', 'read_parent');
    const paths = ['admin.key', 'encryption.key', 'postgres.credentials', 'world-readable.txt'].map((file) => join(dataDir, file));
    const report = (await invoke('peek__read_parent', { paths })).structuredContent;

    expect(report.parentEnviron.ok).toBe(false);
    // Its own PID namespace: a handful of pids (bwrap's init, the plugin), none of Toolplane's.
    expect(report.procEntries.ok).toBe(true);
    expect(report.procEntries.value).not.toContain(String(toolplane!.child.pid));
    expect(report.procEntries.value.length).toBeLessThanOrEqual(3);
    for (const path of paths) {
      expect({ path, ...report.files[path] }).toEqual({ path, ok: false, error: expect.stringContaining('ENOENT') });
    }
    if (isRoot) expect({ uid: report.uid, gid: report.gid }).toEqual({ uid: SANDBOX_UID, gid: SANDBOX_UID });
    // The listed secrets are what a plugin read without the sandbox: Toolplane's environment holds none here,
    // so the admin key must not appear anywhere in the report.
    expect(JSON.stringify(report)).not.toContain(readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
  });

  it('ends a setsid grandchild when its source is removed', async () => {
    await register('spawner-a', 'spawn_grandchild');
    const marker = tag();
    await invoke('spawner-a__spawn_grandchild', { tag: marker });
    expect(running(marker)).toHaveLength(1);
    expect((await api.delete('/api/v1/sources/spawner-a')).status).toBe(204);
    await expectNoProcesses([marker]);
  });

  it('lets a plugin write only where its source allows, and cuts its network when told', async () => {
    const shared = mkdtempSync('/tmp/toolplane-sandbox-fs-');
    const writable = join(shared, 'writable');
    const readOnly = join(shared, 'read-only');
    mkdirSync(writable);
    mkdirSync(readOnly);
    // The operator makes the directories usable by the sandbox user, as a real deployment would.
    for (const dir of [shared, writable, readOnly]) chmodSync(dir, 0o777);
    const listener: Server = createServer((socket) => socket.end());
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const port = (listener.address() as { port: number }).port;
    try {
      const fs = await api.post('/api/v1/sources', {
        name: 'files',
        transport: 'stdio',
        command: process.execPath,
        args: [FILESYSTEM, writable, readOnly],
        sandbox: { writablePaths: [writable], readOnlyPaths: [readOnly] },
      });
      expect(fs.status).toBe(201);
      expect({ health: fs.body.health, lastError: fs.body.lastError }).toEqual({ health: 'healthy', lastError: null });
      expect(fs.body.sandbox).toEqual({ network: true, readOnlyPaths: [readOnly], writablePaths: [writable] });
      const wrote = await api.post('/api/v1/tools/files__write_file/invoke', { arguments: { path: join(writable, 'note.txt'), content: 'written from the sandbox' } });
      expect(wrote.status).toBe(200);
      expect(wrote.body.isError).toBe(false);
      expect(readFileSync(join(writable, 'note.txt'), 'utf8')).toBe('written from the sandbox');
      const refused = await api.post('/api/v1/tools/files__write_file/invoke', { arguments: { path: join(readOnly, 'note.txt'), content: 'x' } });
      expect({ status: refused.body.status, isError: refused.body.isError }).toEqual({ status: 'tool_error', isError: true });
      expect(JSON.stringify(refused.body.result.content)).toMatch(/EROFS|read-only/i);
      expect(existsSync(join(readOnly, 'note.txt'))).toBe(false);

      await register('online', 'connect_port');
      expect((await invoke('online__connect_port', { port })).structuredContent).toEqual({ connected: true });
      await register('offline', 'connect_port', { sandbox: { network: false } });
      const offline = (await invoke('offline__connect_port', { port })).structuredContent;
      expect(offline.connected).toBe(false);
      expect(offline.error).toMatch(/ENETUNREACH|ECONNREFUSED/);
    } finally {
      listener.close();
      rmSync(shared, { recursive: true, force: true });
    }
  });

  (isRoot ? it : it.skip)('refuses a plugin whose files the sandbox user cannot reach, saying which and why', async () => {
    const privateDir = mkdtempSync('/var/tmp/toolplane-private-plugin-'); // 0700 root, as mkdtemp makes it
    try {
      writeFileSync(join(privateDir, 'server.mjs'), readFileSync(HOSTILE));
      const response = await api.post('/api/v1/sources', { name: 'unreachable', transport: 'stdio', command: process.execPath, args: [join(privateDir, 'server.mjs')] });
      expect(response.status).toBe(400);
      expect(response.body.error.details).toContainEqual({
        path: 'args',
        message: expect.stringContaining(`${join(privateDir, 'server.mjs')}: its parent ${privateDir} is not searchable by uid ${SANDBOX_UID}/gid ${SANDBOX_UID}`),
      });
    } finally {
      rmSync(privateDir, { recursive: true, force: true });
    }
  });

  it('rejects sandbox settings that are not absolute paths, listing every problem', async () => {
    const response = await api.post('/api/v1/sources', {
      name: 'bad-sandbox',
      transport: 'stdio',
      command: process.execPath,
      args: [HOSTILE],
      sandbox: { network: 'no', readOnlyPaths: ['relative/path', '/ok'], writablePaths: ['/a/../etc', '/', 'x\u0000y'] },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    const paths = response.body.error.details.map((detail: { path: string }) => detail.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['sandbox.network', 'sandbox.readOnlyPaths', 'sandbox.writablePaths']));
  });

  it('ends a setsid grandchild when Toolplane shuts down, and when Toolplane is killed with SIGKILL', async () => {
    await register('spawner-b', 'spawn_grandchild');
    const first = tag();
    await invoke('spawner-b__spawn_grandchild', { tag: first });
    expect(running(first)).toHaveLength(1);
    expect(await toolplane!.stop()).toBe(0);
    await expectNoProcesses([first]);

    toolplane = await spawnToolplane(env);
    api = makeApi(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
    const second = tag();
    await invoke('spawner-b__spawn_grandchild', { tag: second });
    expect(running(second)).toHaveLength(1);
    toolplane.child.kill('SIGKILL');
    await toolplane.stop();
    await expectNoProcesses([second]);
  }, 90_000);
});

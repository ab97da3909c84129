import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { makeApi, startHarness, type Api } from '../helpers/toolplane-harness.js';
import { expectNoProcesses, processesMatching, SUITE_TAG } from '../helpers/processes.js';
import { spawnToolplane, type ToolplaneProcess } from '../helpers/toolplane-process.js';
import { FIXTURES, ROOT } from '../helpers/upstreams.js';

const HOSTILE = resolve(FIXTURES, 'hostile-server.mjs');
const FILESYSTEM = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const SANDBOX_UID = 65534;
const isRoot = process.getuid?.() === 0;

/**
 * A package checked out under /tmp as `git clone` and `npm install` leave one (readable by anyone):
 * a named root, the hostile server as a dependency in its node_modules, and `plugin/server.mjs`,
 * which imports a sibling module and then that dependency.
 */
function checkoutUnderTmp(prefix: string): string {
  const dir = mkdtempSync(`/tmp/${prefix}`);
  chmodSync(dir, 0o755);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'checked-out-plugin', version: '1.0.0', type: 'module' }),
    'node_modules/hostile-dep/package.json': JSON.stringify({ name: 'hostile-dep', version: '1.0.0', type: 'module', exports: './index.mjs' }),
    'node_modules/hostile-dep/index.mjs': readFileSync(HOSTILE, 'utf8'),
    'plugin/sibling.mjs': 'export const ready = true;\n',
    'plugin/server.mjs': "import { ready } from './sibling.mjs';\nif (ready) await import('hostile-dep');\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, path), text, { mode: 0o644 });
  }
  return dir;
}

/** An npm registry on loopback serving one package, the hostile server as its bin; counts the tarball downloads. */
async function startPackageRegistry(name: string): Promise<{ url: string; tarballDownloads: () => number; close: () => Promise<void> }> {
  const work = mkdtempSync('/var/tmp/toolplane-registry-');
  mkdirSync(join(work, 'package'));
  writeFileSync(join(work, 'package/package.json'), JSON.stringify({ name, version: '1.0.0', bin: { [name]: 'server.mjs' } }));
  writeFileSync(join(work, 'package/server.mjs'), `#!/usr/bin/env node\n${readFileSync(HOSTILE, 'utf8')}`, { mode: 0o755 });
  execFileSync('tar', ['czf', join(work, 'package.tgz'), '-C', work, 'package']);
  const tarball = readFileSync(join(work, 'package.tgz'));
  rmSync(work, { recursive: true, force: true });
  let downloads = 0;
  const server = createHttpServer((request, response) => {
    const address = server.address() as { port: number };
    const base = `http://127.0.0.1:${address.port}`;
    if (request.url === `/${name}`) {
      const dist = {
        tarball: `${base}/${name}/-/${name}-1.0.0.tgz`,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { name, version: '1.0.0', bin: { [name]: 'server.mjs' }, dist } } }));
    } else if (request.url === `/${name}/-/${name}-1.0.0.tgz`) {
      downloads++;
      response.setHeader('content-type', 'application/octet-stream');
      response.end(tarball);
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    tarballDownloads: () => downloads,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

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

  it('says in /health/ready, to a caller with ops:read, that plugins are sandboxed', async () => {
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.sandbox).toEqual({ status: 'up', enabled: true, mode: 'required', runAs: isRoot ? { uid: SANDBOX_UID, gid: SANDBOX_UID } : null });
    // Anyone else learns the check exists, not what it found.
    const anonymous = await fetch(`${toolplane!.url}/health/ready`);
    expect(((await anonymous.json()) as { details: Record<string, unknown> }).details.sandbox).toEqual({ status: 'up' });
  });

  it('runs a plugin checked out under /tmp, which sees its package root: sibling modules and node_modules', async () => {
    const checkout = checkoutUnderTmp('toolplane-checkout-');
    try {
      await register('checkout', 'read_parent', { lifecycle: 'transient', args: [join(checkout, 'plugin/server.mjs'), SUITE_TAG] });
      const report = (await invoke('checkout__read_parent', { paths: [join(checkout, 'package.json')] })).structuredContent;
      expect(report.files[join(checkout, 'package.json')]).toMatchObject({ ok: true });
      expect((await api.delete('/api/v1/sources/checkout')).status).toBe(204);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('says that a plugin which fails to start ran in the sandbox, and which setting shows it more', async () => {
    const checkout = checkoutUnderTmp('toolplane-checkout-');
    const library = mkdtempSync('/tmp/toolplane-library-');
    try {
      chmodSync(library, 0o755);
      writeFileSync(join(library, 'lib.mjs'), 'export const ready = true;\n', { mode: 0o644 });
      writeFileSync(join(checkout, 'plugin/needs-library.mjs'), `import { ready } from '${join(library, 'lib.mjs')}';\nif (ready) await import('hostile-dep');\n`, { mode: 0o644 });
      const failing = await api.post('/api/v1/sources', {
        name: 'needs-library',
        transport: 'stdio',
        command: process.execPath,
        args: [join(checkout, 'plugin/needs-library.mjs'), SUITE_TAG],
        env: { HOSTILE_TOOLS: 'echo_readonly' },
        refreshIntervalSeconds: 0,
      });
      expect(failing.status).toBe(201);
      expect(failing.body.health).toBe('unhealthy');
      expect(failing.body.lastError).toContain('Cannot find module');
      expect(failing.body.lastError).toContain('plugin sandbox');
      expect(failing.body.lastError).toContain('sandbox.readOnlyPaths');

      const changed = await api.patch('/api/v1/sources/needs-library', { sandbox: { readOnlyPaths: [library] } });
      expect(changed.status).toBe(200);
      expect((await api.post('/api/v1/sources/needs-library/refresh')).status).toBe(200);
      expect((await api.get('/api/v1/sources/needs-library')).body).toMatchObject({ health: 'healthy', lastError: null });
      expect((await api.delete('/api/v1/sources/needs-library')).status).toBe(204);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
      rmSync(library, { recursive: true, force: true });
    }
  });

  it("keeps a source's home across its processes, private to it, and removes it with the source", async () => {
    const source = await register('homebody', 'home_counter,read_parent', { lifecycle: 'transient' });
    const home = join(dataDir, 'plugins', source.id, 'home');
    const first = (await invoke('homebody__home_counter', {})).structuredContent;
    const second = (await invoke('homebody__home_counter', {})).structuredContent;
    expect([first, second]).toEqual([
      { home, calls: 1 },
      { home, calls: 2 },
    ]);
    const info = statSync(home);
    expect(info.mode & 0o777).toBe(0o700);
    if (isRoot) expect({ uid: info.uid, gid: info.gid }).toEqual({ uid: SANDBOX_UID, gid: SANDBOX_UID });
    // Another source's plugin sees neither this home nor anything else of the data directory.
    await register('neighbour', 'read_parent,home_counter', { lifecycle: 'transient' });
    const neighbour = (await invoke('neighbour__read_parent', { paths: [join(home, 'hostile-calls')] })).structuredContent;
    expect(neighbour.files[join(home, 'hostile-calls')]).toEqual({ ok: false, error: 'ENOENT' });
    expect((await invoke('neighbour__home_counter', {})).structuredContent.calls).toBe(1);

    expect((await api.delete('/api/v1/sources/homebody')).status).toBe(204);
    expect(existsSync(join(dataDir, 'plugins', source.id))).toBe(false);
    expect((await api.delete('/api/v1/sources/neighbour')).status).toBe(204);
    // A dry run's throwaway source keeps no home either: every home left belongs to a live source.
    const validated = await api.post('/api/v1/sources/validate', { name: 'dry-run', transport: 'stdio', command: process.execPath, args: [HOSTILE, SUITE_TAG], env: { HOSTILE_TOOLS: 'home_counter' } });
    expect(validated.body.valid).toBe(true);
    const live = new Set(((await api.get('/api/v1/sources?limit=200')).body.items as { id: string }[]).map((item) => item.id));
    expect(readdirSync(join(dataDir, 'plugins')).filter((id) => !live.has(id))).toEqual([]);
  });

  it('downloads the package of a transient npx source once, into its home’s npm cache, not on every call', async () => {
    const registry = await startPackageRegistry('hostile-plugin');
    try {
      const created = await api.post('/api/v1/sources', {
        name: 'npx-plugin',
        transport: 'stdio',
        lifecycle: 'transient',
        command: 'npx',
        args: ['--yes', `--registry=${registry.url}`, 'hostile-plugin', SUITE_TAG],
        env: { HOSTILE_TOOLS: 'echo_readonly' },
        refreshIntervalSeconds: 0,
      });
      expect({ status: created.status, health: created.body.health, lastError: created.body.lastError }).toEqual({ status: 201, health: 'healthy', lastError: null });
      for (const word of ['one', 'two']) expect((await invoke('npx-plugin__echo_readonly', { word })).structuredContent).toEqual({ word });
      expect(registry.tarballDownloads()).toBe(1);
      expect(existsSync(join(dataDir, 'plugins', created.body.id, 'home', '.npm', '_npx'))).toBe(true);
      expect((await api.delete('/api/v1/sources/npx-plugin')).status).toBe(204);
    } finally {
      await registry.close();
    }
  }, 120_000);

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

/**
 * The README's first source, from a checkout under /tmp: Toolplane started in the checkout, its data
 * directory the default `./.toolplane` inside it, the plugin's script given relative to it.
 */
describe('the plugin sandbox, for Toolplane run from a checkout under /tmp', () => {
  it('runs a plugin named relative to the checkout, which it binds, and still hides the data directory in it', async () => {
    const checkout = checkoutUnderTmp('toolplane-checkout-');
    const dataDir = join(checkout, '.toolplane');
    const h = await startHarness({ TOOLPLANE_SANDBOX: 'required' }, { dataDir, cwd: checkout });
    try {
      writeFileSync(join(dataDir, 'world-readable.txt'), 'visible to anyone who can see it', { mode: 0o644 });
      expect(existsSync(join(dataDir, 'encryption.key'))).toBe(true);
      const created = await h.api.post('/api/v1/sources', {
        name: 'inside',
        transport: 'stdio',
        command: 'node',
        args: ['plugin/server.mjs', SUITE_TAG],
        env: { HOSTILE_TOOLS: 'read_parent' },
      });
      expect({ status: created.status, health: created.body.health, lastError: created.body.lastError }).toEqual({ status: 201, health: 'healthy', lastError: null });
      const paths = [join(checkout, 'package.json'), join(dataDir, 'encryption.key'), join(dataDir, 'world-readable.txt')];
      const invoked = await h.api.post('/api/v1/tools/inside__read_parent/invoke', { arguments: { paths } });
      expect(invoked.status).toBe(200);
      const files = invoked.body.result.structuredContent.files;
      expect(files[paths[0]!]).toMatchObject({ ok: true });
      expect([files[paths[1]!], files[paths[2]!]]).toEqual([
        { ok: false, error: 'ENOENT' },
        { ok: false, error: 'ENOENT' },
      ]);
    } finally {
      await h.close();
      rmSync(checkout, { recursive: true, force: true });
    }
    await expectNoProcesses([SUITE_TAG]);
  }, 90_000);
});

/** Where bubblewrap is missing (TOOLPLANE_SANDBOX_BWRAP names no file), plugins run unsandboxed: it is said where people look. */
describe('plugins without a sandbox', () => {
  it('say so in /health/ready, which stays ready: the state and its reason, for a caller with ops:read', async () => {
    const h = await startHarness({ TOOLPLANE_SANDBOX_BWRAP: '/nonexistent/bwrap' });
    try {
      expect(h.process.logs()).toContain('stdio plugins run WITHOUT a sandbox (/nonexistent/bwrap not found');
      const ready = await h.api.get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('ok');
      expect(ready.body.details.sandbox).toEqual({
        status: 'up',
        enabled: false,
        mode: 'auto',
        reason: expect.stringContaining('/nonexistent/bwrap not found'),
        warning: expect.stringContaining("plugins run as Toolplane's own user"),
        fix: expect.stringContaining('apt-get install bubblewrap'),
      });
      const anonymous = await fetch(`${h.url}/health/ready`);
      expect(((await anonymous.json()) as { details: Record<string, unknown> }).details.sandbox).toEqual({ status: 'up' });
    } finally {
      await h.close();
    }
  });
});

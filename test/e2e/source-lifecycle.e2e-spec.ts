import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoProcesses, expectNoSuiteProcesses, processesMatching, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_TOOL_COUNT, FIXTURES, freePort, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const CHANGING = join(FIXTURES, 'changing-inventory-server.mjs');

/** The server's own processes (not the sandbox wrapping them). */
const serverProcesses = (marker: string) => processesMatching(marker).filter((line) => !line.includes('/bwrap '));

describe('source lifecycle: dry runs, updates, eras, schedules, pools', () => {
  let h: Harness;
  let dir: string;
  let modernHttp: RunningUpstream | undefined;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_REFRESH_TICK_MS: '200' });
    dir = mkdtempSync(join(tmpdir(), 'toolplane-lifecycle-'));
    // Plugins run sandboxed as an unprivileged user and read their inventory files from here.
    chmodSync(dir, 0o755);
  });

  afterAll(async () => {
    await h.close();
    await modernHttp?.stop();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  it('validates a registration as a dry run: a real connection and a tool preview, nothing stored', async () => {
    const report = await h.api.post('/api/v1/sources/validate', { name: 'preview', transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      valid: true,
      problems: [],
      resolved: { transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] },
      connection: { ok: true, protocol: { era: 'legacy', version: '2025-11-25' }, serverInfo: { name: expect.any(String) } },
    });
    expect(report.body.tools).toHaveLength(EVERYTHING_TOOL_COUNT);
    expect(report.body.tools).toContainEqual(expect.objectContaining({ name: 'echo', qualifiedName: 'preview__echo' }));

    const bad = await h.api.post('/api/v1/sources/validate', { name: 'Preview', transport: 'stdio', command: 'no-such-binary-xyz' });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ valid: false, connection: null });
    expect(bad.body.problems.map((p: { path: string }) => p.path).sort()).toEqual(['command', 'name']);

    const down = await h.api.post('/api/v1/sources/validate', { name: 'down', transport: 'stdio', command: 'node', args: [join(FIXTURES, 'crashing-server.mjs'), SUITE_TAG] });
    expect(down.body).toMatchObject({ valid: false, problems: [], connection: { ok: false, error: expect.stringContaining('exited') } });

    expect((await h.sql('SELECT count(*)::int AS n FROM sources'))[0].n).toBe(0);
    expect((await h.sql('SELECT count(*)::int AS n FROM source_tools'))[0].n).toBe(0);
    await expectNoSuiteProcesses();
  });

  it('discovers a 2026-07-28 server over stdio and over streamable HTTP, recording the era', async () => {
    const stdio = await h.api.post('/api/v1/sources', { name: 'modern-stdio', transport: 'stdio', command: 'node', args: [MODERN, 'stdio', SUITE_TAG] });
    expect(stdio.status).toBe(201);
    expect(stdio.body).toMatchObject({ health: 'healthy', protocol: { era: 'modern', version: '2026-07-28' }, serverInfo: { name: 'modern-fixture', version: '1.2.3' } });
    expect(stdio.body.toolCount).toBe(3);

    modernHttp = await startHttpUpstream((port) => [MODERN, 'http', '--port', String(port), SUITE_TAG], '/mcp');
    const http = await h.api.post('/api/v1/sources', { name: 'modern-http', transport: 'streamable-http', url: modernHttp.url });
    expect(http.status).toBe(201);
    expect(http.body).toMatchObject({ health: 'healthy', toolCount: 3, protocol: { era: 'modern', version: '2026-07-28' } });
    const add = await h.api.get('/api/v1/tools/modern-http__add');
    expect(add.body.outputSchema).toEqual(expect.objectContaining({ type: 'object' }));
    // The recorded era is reused: a refresh answers without renegotiating.
    expect((await h.api.post('/api/v1/sources/modern-http/refresh')).body).toEqual({ added: 0, changed: 0, deprecated: 0, restored: 0, unchanged: 3 });
  });

  it('rediscovers when the way to reach the upstream changes, and refuses stale versions', async () => {
    const inventory = join(dir, 'tools.json');
    writeFileSync(inventory, JSON.stringify([{ name: 'one', inputSchema: { type: 'object' } }]));
    const created = await h.api.post('/api/v1/sources', {
      name: 'changing',
      transport: 'stdio',
      command: 'node',
      args: [CHANGING, SUITE_TAG],
      env: { INVENTORY_FILE: inventory },
      sandbox: { readOnlyPaths: [dir] },
      refreshIntervalSeconds: 0,
    });
    expect(created.body.toolCount).toBe(1);

    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify(['a', 'b', 'c'].map((name) => ({ name, inputSchema: { type: 'object' } }))));
    const stale = await h.api.patch('/api/v1/sources/changing', { env: { INVENTORY_FILE: other }, version: created.body.version + 5 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('STALE_VERSION');

    const updated = await h.api.patch('/api/v1/sources/changing', { env: { INVENTORY_FILE: other }, version: created.body.version });
    expect(updated.status).toBe(200);
    expect(updated.body.toolCount).toBe(3);
    expect(updated.body.version).toBeGreaterThan(created.body.version);
    expect((await h.api.get('/api/v1/tools/changing__one')).body.status).toBe('deprecated');

    const renamed = await h.api.patch('/api/v1/sources/changing', { name: 'renamed', transport: 'sse', timeoutMs: 0 });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['name', 'timeoutMs', 'transport']);

    const quiet = await h.api.patch('/api/v1/sources/changing', { description: 'three tools', timeoutMs: 5000 });
    expect(quiet.body).toMatchObject({ description: 'three tools', timeoutMs: 5000, toolCount: 3 });
    expect((await h.api.patch('/api/v1/sources/nope', { description: 'x' })).status).toBe(404);
  });

  it('refreshes on its own schedule', async () => {
    const inventory = join(dir, 'scheduled.json');
    writeFileSync(inventory, JSON.stringify([{ name: 'first', inputSchema: { type: 'object' } }]));
    const created = await h.api.post('/api/v1/sources', {
      name: 'scheduled',
      transport: 'stdio',
      command: 'node',
      args: [CHANGING, SUITE_TAG],
      env: { INVENTORY_FILE: inventory },
      sandbox: { readOnlyPaths: [dir] },
      refreshIntervalSeconds: 1,
    });
    expect(created.body.toolCount).toBe(1);
    writeFileSync(inventory, JSON.stringify(['first', 'second'].map((name) => ({ name, inputSchema: { type: 'object' } }))));
    const deadline = Date.now() + 10_000;
    let count = 1;
    while (count !== 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      count = (await h.api.get('/api/v1/sources/scheduled')).body.toolCount;
    }
    expect(count).toBe(2);
    await h.api.patch('/api/v1/sources/scheduled', { refreshIntervalSeconds: 0 });
  });

  it('keeps one process for a singleton source, and stops it on removal', async () => {
    const created = await h.api.post('/api/v1/sources', { name: 'kept', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', `kept-${SUITE_TAG}`] });
    expect(created.body).toMatchObject({ health: 'healthy', lifecycle: 'singleton' });
    expect(serverProcesses(`kept-${SUITE_TAG}`)).toHaveLength(1);
    await h.api.post('/api/v1/sources/kept/refresh');
    expect(serverProcesses(`kept-${SUITE_TAG}`)).toHaveLength(1); // reused, not respawned
    expect((await h.api.delete('/api/v1/sources/kept')).status).toBe(204);
    await expectNoProcesses([`kept-${SUITE_TAG}`]);
  });

  it('retries a source whose server starts after it was registered within seconds, not at its refresh interval', async () => {
    const port = await freePort();
    const registered = await h.api.post('/api/v1/sources', { name: 'late', transport: 'streamable-http', url: `http://127.0.0.1:${port}/mcp`, refreshIntervalSeconds: 300 });
    expect(registered.status).toBe(201);
    expect(registered.body.health).toBe('unhealthy');
    // As in a `docker compose up`: the server comes a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const late = await startHttpUpstream([join(FIXTURES, 'http-echo-server.mjs'), '--port', String(port), SUITE_TAG], '/mcp', {}, port);
    try {
      const started = Date.now();
      let source = (await h.api.get('/api/v1/sources/late')).body;
      while (source.health !== 'healthy' && Date.now() - started < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        source = (await h.api.get('/api/v1/sources/late')).body;
      }
      // Retries 2 s, then 4 s after each failure (TOOLPLANE_REFRESH_RETRY_INITIAL_MS), far below 300 s.
      expect(source).toMatchObject({ health: 'healthy', toolCount: 1, consecutiveFailures: 0 });
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      await h.api.delete('/api/v1/sources/late');
      await late.stop();
    }
  });
});

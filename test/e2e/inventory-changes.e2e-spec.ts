import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

const SERVER = join(FIXTURES, 'changing-inventory-server.mjs');

interface FixtureTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

const tool = (name: string, extra: Partial<FixtureTool> = {}): FixtureTool => ({
  name,
  description: `${name} v1`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});

describe('RefreshInventory against an upstream whose tools change (paginated)', () => {
  let h: Harness;
  let dir: string;
  let inventoryFile: string;

  const publish = (tools: FixtureTool[]) => writeFileSync(inventoryFile, JSON.stringify(tools));
  const refresh = async () => {
    const response = await h.api.post('/api/v1/sources/changing/refresh');
    expect(response.status).toBe(200);
    return response.body;
  };
  const statusOf = async (name: string) => (await h.api.get(`/api/v1/tools/changing__${name}`)).body;

  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(join(tmpdir(), 'toolplane-inventory-'));
    // Plugins run sandboxed as an unprivileged user and read their inventory file from here.
    chmodSync(dir, 0o755);
    inventoryFile = join(dir, 'tools.json');
    // Five tools in pages of two: three tools/list round trips per discovery.
    publish(['a', 'b', 'c', 'd', 'e'].map((n) => tool(n)));
    const created = await h.api.post('/api/v1/sources', {
      name: 'changing',
      transport: 'stdio',
      command: process.execPath,
      args: [SERVER, SUITE_TAG],
      env: { INVENTORY_FILE: inventoryFile, PAGE_SIZE: '2' },
      sandbox: { readOnlyPaths: [dir] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: 5 });
  });

  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  it('reports nothing new when nothing changed', async () => {
    expect(await refresh()).toEqual({ added: 0, changed: 0, deprecated: 0, restored: 0, unchanged: 5 });
  });

  it('sees additions across pages', async () => {
    publish(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => tool(n)));
    expect(await refresh()).toEqual({ added: 2, changed: 0, deprecated: 0, restored: 0, unchanged: 5 });
    expect((await statusOf('g')).status).toBe('active');
  });

  it('sees a changed description, schema and annotations each', async () => {
    const before = await statusOf('a');
    publish([
      tool('a', { description: 'a v2' }),
      tool('b', { inputSchema: { type: 'object', properties: { q: { type: 'number' } }, required: ['q'] } }),
      tool('c', { annotations: { readOnlyHint: true } }),
      tool('d', { outputSchema: { type: 'object', properties: { n: { type: 'number' } } } }),
      ...['e', 'f', 'g'].map((n) => tool(n)),
    ]);
    expect(await refresh()).toEqual({ added: 0, changed: 4, deprecated: 0, restored: 0, unchanged: 3 });
    const after = await statusOf('a');
    expect(after.description).toBe('a v2');
    expect(after.definitionHash).not.toBe(before.definitionHash);
    expect((await statusOf('b')).inputSchema.required).toEqual(['q']);
    expect((await statusOf('c')).annotations).toEqual({ readOnlyHint: true });
    expect((await statusOf('d')).outputSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
  });

  it('deprecates tools gone upstream and keeps them out of the default listing', async () => {
    publish([tool('a', { description: 'a v2' }), tool('b', { inputSchema: { type: 'object', properties: { q: { type: 'number' } }, required: ['q'] } })]);
    expect(await refresh()).toEqual({ added: 0, changed: 0, deprecated: 5, restored: 0, unchanged: 2 });
    expect((await statusOf('e')).status).toBe('deprecated');
    const active = await h.api.get('/api/v1/tools?source=changing');
    expect(active.body.items.map((t: { name: string }) => t.name)).toEqual(['a', 'b']);
    const deprecated = await h.api.get('/api/v1/tools?source=changing&status=deprecated');
    expect(deprecated.body.items).toHaveLength(5);
    expect((await h.api.get('/api/v1/sources/changing')).body.toolCount).toBe(2);
  });

  it('restores tools that come back', async () => {
    publish(['a', 'b', 'c', 'e'].map((n) => tool(n)));
    expect(await refresh()).toEqual({ added: 0, changed: 2, deprecated: 0, restored: 2, unchanged: 0 });
    expect((await statusOf('e')).status).toBe('active');
    expect((await statusOf('f')).status).toBe('deprecated');
  });

  it('disables and re-enables one tool, with an audit trail', async () => {
    const off = await h.api.patch('/api/v1/tools/changing__a', { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    expect((await h.api.get('/api/v1/tools?source=changing&enabled=false')).body.items.map((t: { name: string }) => t.name)).toEqual(['a']);
    // A refresh keeps the admin's choice.
    await refresh();
    expect((await statusOf('a')).enabled).toBe(false);
    expect((await h.api.patch('/api/v1/tools/changing__a', { enabled: true })).body.enabled).toBe(true);
    const bad = await h.api.patch('/api/v1/tools/changing__a', { enabled: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('enabled');
    expect((await h.api.patch('/api/v1/tools/nope__x', { enabled: true })).status).toBe(404);
    const audit = await h.api.get('/api/v1/audit-events?targetType=tool');
    expect(audit.body.items.map((e: { action: string }) => e.action)).toEqual(['tool.enabled', 'tool.disabled']);
  });

  it('records a failing refresh on the source health', async () => {
    writeFileSync(inventoryFile, 'not json at all');
    const failed = await h.api.post('/api/v1/sources/changing/refresh');
    expect(failed.status).toBe(502);
    expect((await h.api.get('/api/v1/sources/changing')).body).toMatchObject({ health: 'degraded', consecutiveFailures: 1 });
    publish(['a'].map((n) => tool(n)));
    await refresh();
    expect((await h.api.get('/api/v1/sources/changing')).body).toMatchObject({ health: 'healthy', consecutiveFailures: 0, lastError: null });
  });

  it('refreshes a singleton source within a second of its upstream announcing changed tools (no refresh scheduled)', async () => {
    const announcingFile = join(dir, 'announcing.json');
    writeFileSync(announcingFile, JSON.stringify([tool('first')]));
    const created = await h.api.post('/api/v1/sources', {
      name: 'announcing',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [SERVER, SUITE_TAG],
      env: { INVENTORY_FILE: announcingFile, ANNOUNCE_CHANGES: '1' },
      sandbox: { readOnlyPaths: [dir] },
      refreshIntervalSeconds: 0,
    });
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: 1 });
    const changedAt = Date.now();
    writeFileSync(announcingFile, JSON.stringify([tool('first'), tool('second')]));
    let toolCount = 1;
    while (toolCount !== 2 && Date.now() - changedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      toolCount = (await h.api.get('/api/v1/sources/announcing')).body.toolCount;
    }
    expect(toolCount).toBe(2);
    expect(Date.now() - changedAt).toBeLessThan(1500);
    expect((await h.api.get('/api/v1/tools/announcing__second')).body).toMatchObject({ status: 'active' });
  });
});

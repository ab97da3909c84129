import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expectNoProcesses } from '../helpers/processes.js';
import { startHarness, type Harness, type Peer } from '../helpers/toolplane-harness.js';
import { spawnToolplane } from '../helpers/toolplane-process.js';
import { FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const BIG_INVENTORY = 250; // more than two pages of Toolplane's tools/list at 100 a page
const PAGES_OF_100 = { TOOLPLANE_MCP_PAGE_SIZE: '100' };

type ProcessName = 'A' | 'B';
interface Relayed {
  process: ProcessName;
  method: string;
  name?: string;
}

/**
 * Two Toolplane processes on one database behind a round-robin "load balancer": every request
 * of one 2026-07-28 client goes to the other process than the one before.
 */
describe('two Toolplane processes on one database', () => {
  const tag = `two-processes-${randomUUID()}`;
  const workDir = mkdtempSync(join(tmpdir(), 'toolplane-two-processes-'));
  // Plugins run sandboxed as an unprivileged user and read their inventory file from here.
  chmodSync(workDir, 0o755);
  let h: Harness;
  let peer: Peer;
  let client: Client;
  const relayed: Relayed[] = [];
  let turn = 0;

  const until = async (condition: () => boolean | Promise<boolean>, withinMs: number) => {
    const deadline = Date.now() + withinMs;
    while (!(await condition())) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return true;
  };

  /** Alternates A, B, A, B… whatever the client addressed; remembers who got what. */
  const roundRobin = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const process: ProcessName = turn++ % 2 === 0 ? 'A' : 'B';
    const target = new URL(url);
    target.host = new URL(process === 'A' ? h.url : peer.url).host;
    const message = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { name?: string } }) : {};
    relayed.push({ process, method: message.method ?? init?.method ?? '?', name: message.params?.name });
    return fetch(target, init);
  };

  beforeAll(async () => {
    const inventory = join(workDir, 'inventory.json');
    const tools = Array.from({ length: BIG_INVENTORY }, (_, i) => ({
      name: `tool-${String(i).padStart(3, '0')}`,
      description: `Tool number ${i}`,
      inputSchema: { type: 'object', properties: {} },
    }));
    writeFileSync(inventory, JSON.stringify(tools));
    h = await startHarness(PAGES_OF_100);
    peer = await h.startPeer(PAGES_OF_100);
    const sources = [
      { name: 'big', command: 'node', args: [join(FIXTURES, 'changing-inventory-server.mjs'), tag], env: { INVENTORY_FILE: inventory, PAGE_SIZE: '100' }, sandbox: { readOnlyPaths: [workDir] } },
      { name: 'mod', command: 'node', args: [join(FIXTURES, 'modern-server.mjs'), 'stdio', tag], env: { EXTRA_TOOLS: '1' } },
    ];
    for (const source of sources) {
      const created = await h.api.post('/api/v1/sources', { transport: 'stdio', lifecycle: 'singleton', refreshIntervalSeconds: 0, ...source });
      expect(created.body).toMatchObject({ name: source.name, health: 'healthy' });
    }
    client = new Client({ name: 'two-processes', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } },
      fetch: roundRobin,
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await h?.close();
    rmSync(workDir, { recursive: true, force: true });
    await expectNoProcesses([tag]);
  });

  it('serve one client alternately: server/discover, tools/list pages, tools/call', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(relayed[0]).toMatchObject({ method: 'server/discover' });

    const before = relayed.length;
    const names = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((t) => t.name); // walks every page
    const pages = relayed.slice(before).filter((r) => r.method === 'tools/list');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...names].sort());
    expect(names.filter((n) => n.startsWith('big__'))).toHaveLength(BIG_INVENTORY);
    expect(names).toEqual(expect.arrayContaining(['mod__echo', 'mod__confirm', 'big__tool-000', 'big__tool-249']));
    // Each cursor minted by one process was continued by the other.
    expect(pages.map((r) => r.process)).toEqual(pages.map((_, i) => pages[0]!.process === 'A' ? 'AB'[i % 2] : 'BA'[i % 2]));

    for (let i = 0; i < 2; i++) {
      const called: any = await client.callTool({ name: 'big__tool-007', arguments: {} });
      expect(called.content).toEqual([{ type: 'text', text: 'called tool-007' }]);
    }
    for (let i = 0; i < 2; i++) {
      const echoed: any = await client.callTool({ name: 'mod__echo', arguments: { message: `hello ${i}` } });
      expect(echoed.content).toEqual([{ type: 'text', text: `hello ${i}` }]);
    }
    const calls = relayed.filter((r) => r.method === 'tools/call');
    expect(new Set(calls.filter((r) => r.name === 'big__tool-007').map((r) => r.process))).toEqual(new Set(['A', 'B']));
    expect(new Set(calls.filter((r) => r.name === 'mod__echo').map((r) => r.process))).toEqual(new Set(['A', 'B']));
  });

  it('continues an input_required round trip on the other process', async () => {
    const result: any = await client.callTool({ name: 'mod__confirm', arguments: { action: 'deploy' } });
    expect(result.isError ?? false).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'deploy: done' }]); // the fixture checks the requestState byte for byte
    const rounds = relayed.filter((r) => r.method === 'tools/call' && r.name === 'mod__confirm');
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.process).not.toBe(rounds[1]!.process);
    const rows = await h.sql("SELECT status FROM executions WHERE qualified_name = 'mod__confirm' ORDER BY started_at");
    expect(rows.map((r) => r.status)).toEqual(['input_required', 'succeeded']);
  });

  it("tells a subscriptions/listen stream on B within a second of a source registered through A's REST API", async () => {
    if (turn % 2 === 0) await client.listTools({}, { cacheMode: 'bypass' }); // the listen request goes to B
    let changedAt = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changedAt ||= Date.now();
    });
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      expect(relayed.filter((r) => r.method === 'subscriptions/listen').map((r) => r.process)).toEqual(['B']);
      const created = await h.api.post('/api/v1/sources', {
        name: 'late',
        transport: 'stdio',
        lifecycle: 'singleton',
        refreshIntervalSeconds: 0,
        command: 'node',
        args: [join(FIXTURES, 'modern-server.mjs'), 'stdio', tag],
      });
      expect(created.body).toMatchObject({ name: 'late', health: 'healthy' });
      // The inventory was committed at lastRefreshAt (a little before, in fact), before the answer.
      const committedAt = Date.parse(created.body.lastRefreshAt);
      expect(await until(() => changedAt > 0, 1000)).toBe(true);
      expect(changedAt - committedAt).toBeLessThan(1000);
      const listedOnB = await peer.api.get('/api/v1/tools?source=late');
      expect(listedOnB.body.items.map((t: any) => t.qualifiedName)).toEqual(expect.arrayContaining(['late__echo', 'late__add']));
    } finally {
      await subscription.close();
    }
  });

  it('B stops offering and refuses a tool at once when it is disabled through A (no cache TTL to wait out)', async () => {
    // Warm B's route cache and catalog snapshot.
    expect((await peer.api.post('/api/v1/tools/mod__add/invoke', { arguments: { a: 1, b: 2 } })).status).toBe(200);
    const changed = await h.api.patch('/api/v1/tools/mod__add', { enabled: false });
    expect(changed.status).toBe(200);
    const disabledAt = Date.now();
    try {
      const refused = await until(async () => (await peer.api.post('/api/v1/tools/mod__add/invoke', { arguments: { a: 1, b: 2 } })).status === 403, 1000);
      expect(refused).toBe(true);
      expect(Date.now() - disabledAt).toBeLessThan(1000);
    } finally {
      await h.api.patch('/api/v1/tools/mod__add', { enabled: true });
    }
  });

  it("changes the REST catalog's ETag on B right after a change through A", async () => {
    const before = await peer.api.get('/api/v1/tools?source=mod');
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await peer.api.request('GET', '/api/v1/tools?source=mod', undefined, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await h.api.patch('/api/v1/tools/mod__echo', { enabled: false })).status).toBe(200);
    try {
      const after = await peer.api.request('GET', '/api/v1/tools?source=mod', undefined, { headers: { 'if-none-match': etag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
    } finally {
      await h.api.patch('/api/v1/tools/mod__echo', { enabled: true });
    }
  });

  it('refuses to start a process that would generate an encryption key of its own on this database', async () => {
    const dataDir = join(workDir, 'keyless');
    const failure = await spawnToolplane({ HOST: '127.0.0.1', DATABASE_URL: h.databaseUrl, TOOLPLANE_ADMIN_KEY: h.adminKey, TOOLPLANE_DATA_DIR: dataDir }).then(
      () => new Error('started'),
      (error: Error) => error,
    );
    expect(failure.message).toMatch(/sealed with encryption key [0-9a-f]+[\s\S]*TOOLPLANE_ENCRYPTION_KEY/);
    expect(existsSync(join(dataDir, 'encryption.key'))).toBe(false);
  });
});

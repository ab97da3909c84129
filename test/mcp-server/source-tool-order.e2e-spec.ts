import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, MEMORY_DIR } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const CHANGING = join(FIXTURES, 'changing-inventory-server.mjs');

type Mode = 'modern' | 'legacy';

/** `/mcp/sources/{name}` lists a source's tools in the order its upstream lists them, page after page. */
describe('/mcp/sources/{name} tool order', () => {
  let h: Harness;
  let dir: string;
  let inventoryFile: string;
  const clients: Client[] = [];
  const sources: Record<string, { command: string; args: string[]; env: Record<string, string> }> = {};

  const publish = (names: string[]) => writeFileSync(inventoryFile, JSON.stringify(names.map((name) => ({ name, description: `${name} tool`, inputSchema: { type: 'object' } }))));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'source-tool-order-'));
    // The plugins run as the sandbox's unprivileged user.
    chmodSync(dir, 0o777);
    inventoryFile = join(dir, 'tools.json');
    publish(['zeta', 'alpha', 'mid', 'beta']);
    // Pages of ten: server-everything's tools take two.
    h = await startHarness({ TOOLPLANE_MCP_PAGE_SIZE: '10' });
    sources.everything = { command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG], env: {} };
    sources.memory = { command: 'node', args: [`${MEMORY_DIR}/dist/index.js`, SUITE_TAG], env: { MEMORY_FILE_PATH: join(dir, 'memory.json') } };
    sources.changing = { command: 'node', args: [CHANGING, SUITE_TAG], env: { INVENTORY_FILE: inventoryFile } };
    for (const [name, spec] of Object.entries(sources)) {
      const created = (await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', ...spec, sandbox: { writablePaths: [dir] }, refreshIntervalSeconds: 0 })).body;
      expect([created.name, created.health, created.lastError]).toEqual([name, 'healthy', null]);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoSuiteProcesses();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The upstream's own tools/list, every page, to a client declaring what Toolplane's connections declare. */
  const upstreamOrder = async (name: string): Promise<string[]> => {
    const spec = sources[name]!;
    const client = new Client({ name: 'order-test', version: '1' }, { capabilities: { sampling: {}, elicitation: {} } });
    await client.connect(new StdioClientTransport({ command: spec.command, args: spec.args, env: { ...process.env, ...spec.env } as Record<string, string>, stderr: 'ignore' }));
    try {
      return (await client.listTools()).tools.map((tool) => tool.name);
    } finally {
      await client.close();
    }
  };

  const listed = async (path: string, mode: Mode): Promise<string[]> => {
    const client = new Client({ name: 'order-test', version: '1' }, mode === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    return (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
  };

  it.each<Mode>(['modern', 'legacy'])('keeps the upstream order of server-memory and server-everything, over pages (%s)', async (mode) => {
    for (const name of ['memory', 'everything']) {
      const upstream = await upstreamOrder(name);
      const served = await listed(`/mcp/sources/${name}`, mode);
      expect(served.length).toBeGreaterThan(name === 'everything' ? 10 : 5);
      // Every tool the source offers, in the upstream's order (a tool agents cannot call is left out).
      expect(served).toEqual(upstream.filter((tool) => served.includes(tool)));
      expect(served).not.toEqual([...served].sort());
    }
    // The catalog of every source stays in qualified-name order.
    const all = await listed('/mcp', mode);
    expect(all).toEqual([...all].sort());
  });

  it('follows the upstream when it reorders its tools, with nothing else changed', async () => {
    expect(await listed('/mcp/sources/changing', 'modern')).toEqual(['zeta', 'alpha', 'mid', 'beta']);
    publish(['beta', 'mid', 'zeta', 'alpha']);
    const refreshed = await h.api.post('/api/v1/sources/changing/refresh');
    expect(refreshed.body).toMatchObject({ added: 0, changed: 0, deprecated: 0, restored: 0, unchanged: 4 });
    expect(await listed('/mcp/sources/changing', 'modern')).toEqual(['beta', 'mid', 'zeta', 'alpha']);
    expect(await listed('/mcp/sources/changing', 'legacy')).toEqual(['beta', 'mid', 'zeta', 'alpha']);
    // A tool added in the middle takes its place there.
    publish(['beta', 'new', 'mid', 'zeta', 'alpha']);
    expect((await h.api.post('/api/v1/sources/changing/refresh')).body).toMatchObject({ added: 1 });
    expect(await listed('/mcp/sources/changing', 'modern')).toEqual(['beta', 'new', 'mid', 'zeta', 'alpha']);
  });
});

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mcpAnswer } from '../helpers/mcp-answer.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, MEMORY_DIR, ROOT } from '../helpers/upstreams.js';

const FILESYSTEM = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const LEGACY = '2025-11-25';
type Json = Record<string, unknown>;

/** The listing as the upstream sent it: the SDK's own result schema would rebuild each tool in its key order. */
const AS_SENT: StandardSchemaV1<unknown, unknown> = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) } };

/** Tools of an upstream of our own: unusual key orders, fields Toolplane does not know, a tool that needs tasks. */
const FIDELITY_TOOLS = [
  {
    name: 'order-kept',
    description: 'Keys in an unusual order',
    inputSchema: {
      required: ['zeta'],
      properties: { zeta: { type: 'string' }, alpha: { type: 'integer', description: 'optional' }, mid: { type: ['string', 'null'] } },
      type: 'object',
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, title: 'Order', futureHint: 'kept' },
    futureField: { nested: [3, 1, 2] },
    _meta: { 'vendor.example/key': 'v' },
    icons: [{ src: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' }],
    execution: { taskSupport: 'optional' },
  },
  {
    name: 'nested-optional',
    inputSchema: {
      type: 'object',
      properties: {
        filter: { type: 'object', properties: { tag: { type: 'string' }, limit: { type: 'integer' } }, required: ['tag'] },
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, note: { type: 'string' } }, required: ['id'] } },
        maybe: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      },
      required: ['items'],
    },
    outputSchema: { type: 'object', properties: { received: { type: 'object' } }, required: ['received'] },
  },
  { name: 'task-only', description: 'Must run as a task', inputSchema: { type: 'object', properties: {} }, execution: { taskSupport: 'required' } },
];

/**
 * What an agent receives is what the upstream declared and returned: each npm server's own
 * tools/list against `/mcp/sources/{name}` and the REST catalog's MCP format, field by field and
 * key order by key order; calls built from the strict formats are accepted; tools that cannot be
 * served are not offered; long source names keep the tool's own name readable.
 */
describe('fidelity', () => {
  let h: Harness;
  let dir: string;
  const sources: Record<string, { command: string; args: string[]; env?: Record<string, string>; sandbox?: Json }> = {};

  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(join(tmpdir(), 'toolplane-fidelity-'));
    // Plugins run sandboxed as another user, with /tmp hidden but for the paths a source declares.
    chmodSync(dir, 0o777);
    const shared = { writablePaths: [dir] };
    writeFileSync(join(dir, 'notes.txt'), 'line 1\nline 2\nline 3\n');
    const inventory = join(dir, 'inventory.json');
    writeFileSync(inventory, JSON.stringify(FIDELITY_TOOLS));
    sources.everything = { command: 'node', args: [EVERYTHING, 'stdio'] };
    sources.memory = { command: 'node', args: [`${MEMORY_DIR}/dist/index.js`], env: { MEMORY_FILE_PATH: join(dir, 'memory.json') }, sandbox: shared };
    sources.filesystem = { command: 'node', args: [FILESYSTEM, dir], sandbox: shared };
    // The same tools from a 2025-era upstream (which may declare `execution`) and a 2026-07-28 one (which may not).
    sources.fidelity = { command: 'node', args: [join(FIXTURES, 'fidelity-server.mjs')], env: { INVENTORY_FILE: inventory, LEGACY_ONLY: '1' }, sandbox: shared };
    sources['fidelity-modern'] = { command: 'node', args: [join(FIXTURES, 'fidelity-server.mjs')], env: { INVENTORY_FILE: inventory }, sandbox: shared };
    for (const [name, spec] of Object.entries(sources)) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', ...spec });
      expect({ name, status: created.status, error: created.status === 201 ? undefined : created.body }).toEqual({ name, status: 201, error: undefined });
    }
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The upstream's own tools/list, as sent, to a client negotiating and declaring what Toolplane's connections do. */
  const upstreamTools = async (name: string): Promise<Json[]> => {
    const spec = sources[name]!;
    const client = new Client({ name: 'fidelity-test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: { ...process.env, ...spec.env } as Record<string, string>,
      stderr: 'ignore',
    }));
    try {
      return ((await client.request({ method: 'tools/list', params: {} }, AS_SENT, {})) as { tools: Json[] }).tools;
    } finally {
      await client.close();
    }
  };

  /** A sessionless 2025-era request to an MCP endpoint: the answer's headers and result. */
  const mcpPost = async (path: string, method: string, params: Json): Promise<{ headers: Headers; result: any }> => {
    const response = await fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY, authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return { headers: response.headers, result: mcpAnswer(await response.text()).result };
  };
  const mcpList = async (path: string): Promise<Json[]> => (await mcpPost(path, 'tools/list', {})).result.tools;

  const byName = (tools: Json[]) => new Map(tools.map((tool) => [tool.name as string, tool]));

  it.each(['everything', 'memory', 'filesystem', 'fidelity', 'fidelity-modern'])('passes on %s tools exactly as declared, on MCP and in the REST catalog', async (name) => {
    const upstream = byName(await upstreamTools(name));
    const overMcp = byName(await mcpList(`/mcp/sources/${name}`));
    const rest = (await h.api.get(`/api/v1/tools?source=${name}&format=mcp&limit=500`)).body.items as Json[];
    const overRest = new Map(rest.map((tool) => [(tool.name as string).slice(name.length + 2), { ...tool, name: (tool.name as string).slice(name.length + 2) }]));

    const expected = [...upstream.values()];
    expect(expected.length).toBeGreaterThan(0);
    expect([...overMcp.keys()].sort()).toEqual(expected.map((tool) => tool.name).sort());
    expect([...overRest.keys()].sort()).toEqual(expected.map((tool) => tool.name).sort());
    for (const tool of expected) {
      // Byte for byte after parsing: every field, every key in the upstream's order.
      expect(JSON.stringify(overMcp.get(tool.name as string))).toBe(JSON.stringify(tool));
      expect(JSON.stringify(overRest.get(tool.name as string))).toBe(JSON.stringify(tool));
    }
    // The 2026-07-28 answer of the catalog endpoint holds the same definitions under qualified names.
    const catalog = byName(await mcpList('/mcp'));
    for (const tool of expected) expect(JSON.stringify(catalog.get(`${name}__${tool.name as string}`))).toBe(JSON.stringify({ ...tool, name: `${name}__${tool.name as string}` }));
  });

  it('keeps the order it was declared in through a refresh, which counts it as no change', async () => {
    const refreshed = await h.api.post('/api/v1/sources/fidelity/refresh');
    expect(refreshed.body).toMatchObject({ added: 0, changed: 0, unchanged: 3 });
    const [row] = await h.sql<{ text: string }>(`SELECT definition::text AS text FROM source_tools WHERE qualified_name = 'fidelity__order-kept'`);
    expect(row!.text).toBe(JSON.stringify(FIDELITY_TOOLS[0]));
  });

  it('offers a tool that must run as a task, and fails a call to it when its server declares no tasks', async () => {
    const tool = await h.api.get('/api/v1/tools/fidelity__task-only');
    expect(tool.body).toMatchObject({ unusableReason: null, definition: { execution: { taskSupport: 'required' } } });
    expect((await mcpList('/mcp')).map((t) => t.name)).toContain('fidelity__task-only');
    const refused = await h.api.post('/api/v1/tools/fidelity__task-only/invoke', { arguments: {} });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_PROTOCOL_ERROR', message: expect.stringContaining('must run as a task, and its server declares no tasks') });
    // taskSupport "optional" is a normal call.
    expect((await h.api.post('/api/v1/tools/fidelity__order-kept/invoke', { arguments: { zeta: 'z' } })).body.status).toBe('succeeded');
  });

  describe('calls built from the strict formats', () => {
    const strictTools = async (source: string, format: 'openai' | 'openai-responses') => {
      const body = (await h.api.get(`/api/v1/tools?source=${source}&format=${format}&strict=true&limit=500`)).body;
      return (body.items as Json[]).map((item) => {
        const fn = (format === 'openai' ? item.function : item) as { name: string; parameters: Json };
        return { name: fn.name, parameters: fn.parameters };
      });
    };

    it('are accepted, and the upstream receives what a non-strict client sends (REST and MCP)', async () => {
      // task-only is offered too, but its server declares no tasks, so no call to it can succeed.
      const tools = (await strictTools('fidelity', 'openai')).filter((tool) => tool.name !== 'fidelity__task-only');
      const expected: Record<string, Json> = {
        'fidelity__order-kept': { zeta: 'x', mid: null },
        'fidelity__nested-optional': { items: [{ id: 'x' }], maybe: null },
      };
      expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(expected).sort());
      for (const tool of tools) {
        const args = strictValue(tool.parameters, tool.parameters) as Json;
        const rest = await h.api.post(`/api/v1/tools/${tool.name}/invoke`, { arguments: args });
        expect({ tool: tool.name, status: rest.body.status }).toEqual({ tool: tool.name, status: 'succeeded' });
        expect(rest.body.result.structuredContent.received).toEqual(expected[tool.name]);
        const mcp = await mcpCall(tool.name, args);
        expect(mcp.isError).toBeUndefined();
        expect(mcp.structuredContent.received).toEqual(expected[tool.name]);
        // The result's `_meta` is the upstream's own, nothing added.
        expect(mcp._meta).toEqual({ 'example.com/upstream-trace': 'abc123' });
      }
      // The same from the Responses format.
      const responses = await strictTools('fidelity', 'openai-responses');
      for (const tool of responses.filter((item) => item.name !== 'fidelity__task-only')) expect((await h.api.post(`/api/v1/tools/${tool.name}/invoke`, { arguments: strictValue(tool.parameters, tool.parameters) })).body.status).toBe('succeeded');
    });

    it("read filesystem's read_text_file with head and tail null, as a strict-mode model sends it", async () => {
      const args = { path: join(dir, 'notes.txt'), head: null, tail: null };
      const rest = await h.api.post('/api/v1/tools/filesystem__read_text_file/invoke', { arguments: args });
      expect(rest.body.status).toBe('succeeded');
      expect(rest.body.result.content[0].text).toBe('line 1\nline 2\nline 3\n');
      expect((await mcpCall('filesystem__read_text_file', args)).content[0].text).toBe('line 1\nline 2\nline 3\n');
    });

    it('are judged as the same call without the nulls, for every read-only tool of the three npm servers', async () => {
      let checked = 0;
      for (const source of ['everything', 'memory', 'filesystem']) {
        const readOnly = new Set(
          ((await h.api.get(`/api/v1/tools?source=${source}&readOnly=true&limit=500`)).body.items as { qualifiedName: string }[]).map((tool) => tool.qualifiedName),
        );
        for (const tool of await strictTools(source, 'openai')) {
          if (!readOnly.has(tool.name)) continue;
          const withNulls = strictValue(tool.parameters, tool.parameters) as Json;
          const withoutNulls = stripNulls(withNulls) as Json;
          // (trigger-long-running-operation runs 10 s by default: both calls end at the same timeout.)
          const strict = (await h.api.post(`/api/v1/tools/${tool.name}/invoke`, { arguments: withNulls, timeoutMs: 2000 })).body;
          const plain = (await h.api.post(`/api/v1/tools/${tool.name}/invoke`, { arguments: withoutNulls, timeoutMs: 2000 })).body;
          expect({ tool: tool.name, status: strict.status }).toEqual({ tool: tool.name, status: plain.status });
          expect(strict.status).not.toBe('invalid_arguments');
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(10);
    }, 60_000);
  });

  it("keeps the tool's own name readable when the source name is long", async () => {
    const long = 'fidelity-with-a-rather-long-but-valid-source-name-0123456789ab';
    expect(long).toHaveLength(62);
    const created = await h.api.post('/api/v1/sources', { name: long, transport: 'stdio', lifecycle: 'transient', ...sources.fidelity });
    expect(created.body.error).toBeUndefined();
    expect(created.status).toBe(201);
    const names = ((await h.api.get(`/api/v1/tools?source=${long}&limit=50`)).body.items as { qualifiedName: string }[]).map((tool) => tool.qualifiedName).sort();
    expect(names).toHaveLength(3);
    expect(names[0]).toMatch(/^fidelity-with-a-rather-long-but-valid-so_[0-9a-f]{6}__nested-optional$/);
    expect(names[1]).toMatch(/__order-kept$/);
    expect(names[2]).toMatch(/__task-only$/);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(64);
    expect((await h.api.post(`/api/v1/tools/${names[1]}/invoke`, { arguments: { zeta: 'z' } })).body.status).toBe('succeeded');
  });

  it('names the execution in a response header, and in the result only when the request asks', async () => {
    for (const [path, name, args] of [
      ['/mcp', 'fidelity__order-kept', { zeta: 'z' }],
      // The gateway is served by the SDK's own server (not the stateless fast path).
      ['/mcp/gateway', 'call_tool', { name: 'fidelity__order-kept', arguments: { zeta: 'z' } }],
    ] as const) {
      const plain = await mcpExchange(path, name, args);
      const id = plain.headers.get('toolplane-execution-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await h.sql('SELECT status FROM executions WHERE id = $1', [id]))[0]).toEqual({ status: 'succeeded' });
      expect(plain.result._meta?.['dev.toolplane/execution']).toBeUndefined();
      const asked = await mcpExchange(path, name, args, { 'dev.toolplane/execution': true });
      expect(asked.result._meta['dev.toolplane/execution']).toEqual({ id: asked.headers.get('toolplane-execution-id'), status: 'succeeded' });
    }
  });

  const mcpExchange = (path: string, name: string, args: unknown, meta?: Json) => mcpPost(path, 'tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });
  const mcpCall = async (name: string, args: Json): Promise<any> => (await mcpExchange('/mcp', name, args)).result;
});

/** A value a strict-mode model could send for a strict schema: null wherever null is allowed, else the simplest value. */
function strictValue(schema: Json, root: Json): unknown {
  if (typeof schema.$ref === 'string') return strictValue((root.$defs as Record<string, Json>)[schema.$ref.slice('#/$defs/'.length)]!, root);
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Json[];
    return branches.some((branch) => branch.type === 'null') ? null : strictValue(branches[0]!, root);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.includes('null')) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (types[0]) {
    case 'object':
      return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([key, inner]) => [key, strictValue(inner, root)]));
    case 'array':
      return [strictValue(schema.items as Json, root)];
    case 'string':
      return 'x';
    case 'boolean':
      return true;
    default:
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
  }
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== null).map(([key, inner]) => [key, stripNulls(inner)]));
}

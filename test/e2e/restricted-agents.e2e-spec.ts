import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, MEMORY_DIR } from '../helpers/upstreams.js';

/** Asks for the execution in each result's `_meta` (results carry only what the upstream sent otherwise). */
const WITH_EXECUTION = { 'dev.toolplane/execution': true };

/**
 * Agents restricted to some sources and tools: the same decision hides the others from every
 * listing (REST catalog, `/mcp`, `/mcp/sources/{name}`, the gateway's search) and refuses calls to
 * them (403 TOOL_NOT_ALLOWED on REST, an MCP error), and those refusals are recorded as rejected.
 */
describe('restricted agents', () => {
  let h: Harness;
  let agent: { id: string; key: string };

  beforeAll(async () => {
    h = await startHarness();
    for (const body of [
      { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] },
      { name: 'mem', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [`${MEMORY_DIR}/dist/index.js`], env: { MEMORY_FILE_PATH: '/tmp/unused-memory.json' } },
    ]) {
      const created = await h.api.post('/api/v1/sources', body);
      expect(created.status).toBe(201);
    }
    const created = await h.api.post('/api/v1/api-keys', { name: 'echo only', role: 'agent', allowedSources: ['ev', 'mem'], allowedTools: ['ev__echo', 'ev__get-*', 'mem__read_graph'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ allowedSources: ['ev', 'mem'], allowedTools: ['ev__echo', 'ev__get-*', 'mem__read_graph'] });
    agent = created.body;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const allowed = (names: string[]) => names.filter((name) => name === 'ev__echo' || name.startsWith('ev__get-') || name === 'mem__read_graph').sort();

  it('lists only its tools in the REST catalog, in every format, and hides the others', async () => {
    const all = (await h.api.get('/api/v1/tools?limit=200')).body.items.map((t: { qualifiedName: string }) => t.qualifiedName);
    expect(all.length).toBeGreaterThan(10);
    const asAgent = makeApi(h.url, agent.key);
    const mine = (await asAgent.get('/api/v1/tools?limit=200')).body.items.map((t: { qualifiedName: string }) => t.qualifiedName).sort();
    expect(mine).toEqual(allowed(all));
    expect(mine.length).toBeGreaterThanOrEqual(3);
    const openai = (await asAgent.get('/api/v1/tools?format=openai&limit=200')).body.items.map((t: { function: { name: string } }) => t.function.name).sort();
    expect(openai).toEqual(mine);
    const searched = (await asAgent.get('/api/v1/tools?q=echo')).body.items.map((t: { qualifiedName: string }) => t.qualifiedName);
    expect(searched).toEqual(['ev__echo']);
    expect((await asAgent.get('/api/v1/tools/ev__echo')).status).toBe(200);
    expect((await asAgent.get('/api/v1/tools/mem__create_entities')).body.error.code).toBe('TOOL_NOT_FOUND');
  });

  it('refuses calls to other tools with 403 TOOL_NOT_ALLOWED, recorded as rejected with the rule', async () => {
    const asAgent = makeApi(h.url, agent.key);
    expect((await asAgent.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'ok' } })).status).toBe(200);
    const refused = await asAgent.post('/api/v1/tools/mem__create_entities/invoke', { arguments: { entities: [] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'TOOL_NOT_ALLOWED', details: [{ path: 'qualifiedName', message: expect.stringContaining('allowedTools') }] });
    const [row] = await h.sql(`SELECT status, error->>'code' AS code, caller_principal FROM executions WHERE id = $1`, [refused.body.execution.id]);
    expect(row).toEqual({ status: 'rejected', code: 'TOOL_NOT_ALLOWED', caller_principal: agent.id });
  });

  it('sees and calls only its tools over MCP: /mcp, /mcp/sources/{name} and the gateway', async () => {
    const connect = async (path: string) => {
      const client = new Client({ name: 'restricted', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${agent.key}` } } }));
      return client;
    };
    const all = (await h.api.get('/api/v1/tools?limit=200')).body.items.map((t: { qualifiedName: string }) => t.qualifiedName);

    // A tool of an allowed source that the tool patterns leave out.
    const hidden = all.find((name: string) => name.startsWith('ev__') && allowed([name]).length === 0)!;
    expect(hidden).toBeDefined();
    const everything = await connect('/mcp');
    expect((await everything.listTools()).tools.map((t) => t.name).sort()).toEqual(allowed(all));
    const refused = await everything.callTool({ _meta: WITH_EXECUTION, name: hidden, arguments: {} });
    expect(refused.isError).toBe(true);
    expect((refused._meta as Record<string, { code?: string }>)['dev.toolplane/execution'].code).toBe('TOOL_NOT_ALLOWED');
    await everything.close();

    const memory = await connect('/mcp/sources/mem');
    expect((await memory.listTools()).tools.map((t) => t.name)).toEqual(['read_graph']);
    expect((await memory.callTool({ _meta: WITH_EXECUTION, name: 'delete_entities', arguments: { entityNames: ['x'] } })).isError).toBe(true);
    await memory.close();

    const gateway = await connect('/mcp/gateway');
    const found = await gateway.callTool({ _meta: WITH_EXECUTION, name: 'search_tools', arguments: { query: `echo graph sum ${hidden.slice(4)}`, limit: 50 } });
    const names = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => allowed([name]).length === 1)).toBe(true);
    const viaGateway = await gateway.callTool({ _meta: WITH_EXECUTION, name: 'call_tool', arguments: { name: hidden, arguments: {} } });
    expect(viaGateway.isError).toBe(true);
    await gateway.close();

    const rows = await h.sql(`SELECT qualified_name, channel FROM executions WHERE caller_principal = $1 AND error->>'code' = 'TOOL_NOT_ALLOWED' ORDER BY started_at`, [agent.id]);
    expect(rows.map((r: { qualified_name: string }) => r.qualified_name)).toEqual(['mem__create_entities', hidden, 'mem__delete_entities', hidden]);
  });

  it('refuses bad patterns, each with its path', async () => {
    const bad = await h.api.post('/api/v1/api-keys', { name: 'bad', role: 'agent', allowedSources: 'ev', allowedTools: ['ok', 'no spaces', ''], allowedGroups: ['ok', 7] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(['allowedSources', 'allowedTools[1]', 'allowedTools[2]', 'allowedGroups[1]']);
  });

  it('lets a key bound to groups see and call nothing outside them, on every path', async () => {
    const created = await h.api.post('/api/v1/api-keys', { name: 'support bot', role: 'agent', allowedGroups: ['support'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ allowedSources: null, allowedTools: null, allowedGroups: ['support'] });
    const bound = makeApi(h.url, created.body.key);
    expect((await bound.get('/api/v1/access/me')).body).toMatchObject({ allowedGroups: ['support'] });
    expect((await bound.get('/api/v1/tools?limit=200')).body.items).toEqual([]);
    expect((await h.api.get(`/api/v1/tools?as=${created.body.id}`)).body.items).toEqual([]);
    const refused = await bound.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details[0].message).toContain('allowedGroups: only through the groups ["support"]');
    const explained = await h.api.post('/api/v1/access/explain', { principal: created.body.id, tool: 'ev__echo' });
    expect(explained.body).toMatchObject({ allowed: false, group: null, principal: { allowedGroups: ['support'] } });
    expect((await h.api.post('/api/v1/access/explain', { principal: created.body.id, tool: 'ev__echo', group: 'support' })).body).toMatchObject({
      allowed: true,
      group: 'support',
      rule: 'allowedGroups: group "support" matches "support"',
    });

    const client = new Client({ name: 'bound', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${created.body.key}` } } }));
    expect((await client.listTools()).tools).toEqual([]);
    expect((await client.callTool({ name: 'ev__echo', arguments: { message: 'x' } })).isError).toBe(true);
    await client.close();
    const gateway = new Client({ name: 'bound', version: '1' });
    await gateway.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/gateway`), { requestInit: { headers: { authorization: `Bearer ${created.body.key}` } } }));
    const found = await gateway.callTool({ name: 'search_tools', arguments: { query: 'echo sum', limit: 50 } });
    expect((found.structuredContent as { tools: unknown[] }).tools).toEqual([]);
    await gateway.close();
    const bySource = await fetch(`${h.url}/mcp/sources/ev`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.body.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    // A source the caller may not use answers as one that does not exist.
    expect(bySource.status).toBe(404);
  });

  it('lets a key bound to a group see and call that group’s tools through it, on every group path, and nothing of another group', async () => {
    const support = { name: 'support', include: ['ev__echo', 'ev__get-sum'], overrides: { ev__echo: { name: 'say', locked: { message: 'locked phrase' } } } };
    expect((await h.api.post('/api/v1/groups', support)).status).toBe(201);
    expect((await h.api.post('/api/v1/groups', { name: 'other', include: ['ev__get-sum'] })).status).toBe(201);
    const created = (await h.api.post('/api/v1/api-keys', { name: 'support only', role: 'agent', allowedGroups: ['support'] })).body;
    const bound = makeApi(h.url, created.key);
    const names = (body: { items: { name: string }[] }) => body.items.map((t) => t.name).sort();

    expect(names((await bound.get('/api/v1/tools?group=support&format=mcp')).body)).toEqual(['get-sum', 'say']);
    expect((await bound.get('/api/v1/groups/support/tools?format=openai')).body.items.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(['get-sum', 'say']);
    expect((await bound.get('/api/v1/tools?group=other&format=mcp')).body.items).toEqual([]);
    // An admin previews what the key would see, through each group.
    expect(names((await h.api.get(`/api/v1/groups/support/tools?as=${created.id}&format=mcp`)).body)).toEqual(['get-sum', 'say']);
    expect((await h.api.get(`/api/v1/groups/other/tools?as=${created.id}`)).body.items).toEqual([]);
    expect((await h.api.get(`/api/v1/groups/support/tools?group=other`)).status).toBe(400);
    expect((await h.api.get(`/api/v1/groups/nothing/tools`)).body.error.code).toBe('GROUP_NOT_FOUND');

    const said = await bound.post('/api/v1/groups/support/tools/say/invoke', { arguments: {} });
    expect(said.status).toBe(200);
    expect(JSON.stringify(said.body.result)).toContain('locked phrase');
    const escaped = await bound.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'free text' } });
    expect(escaped.status).toBe(403);
    const elsewhere = await bound.post('/api/v1/groups/other/tools/get-sum/invoke', { arguments: { a: 1, b: 2 } });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.details[0].message).toBe('allowedGroups: group "other" matches none of ["support"]');
    expect((await h.api.post('/api/v1/access/explain', { principal: created.id, tool: 'ev__echo', group: 'support' })).body).toMatchObject({ allowed: true, rule: 'allowedGroups: group "support" matches "support"' });

    const connect = async (path: string) => {
      const client = new Client({ name: 'bound', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${created.key}` } } }));
      return client;
    };
    const group = await connect('/mcp/groups/support');
    expect((await group.listTools()).tools.map((t) => t.name).sort()).toEqual(['get-sum', 'say']);
    const viaMcp = await group.callTool({ name: 'say', arguments: {} });
    expect(viaMcp.isError).toBeFalsy();
    expect(JSON.stringify(viaMcp.content)).toContain('locked phrase');
    await group.close();
    const other = await connect('/mcp/groups/other');
    expect((await other.listTools()).tools).toEqual([]);
    expect((await other.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })).isError).toBe(true);
    await other.close();
  });
});

describe('checking a key before handing it out', () => {
  let h: Harness;
  let agent: { id: string; key: string };
  let auditor: { id: string; key: string };

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
    agent = (await h.api.post('/api/v1/api-keys', { name: 'getter', role: 'agent', allowedTools: ['ev__get-*'] })).body;
    auditor = (await h.api.post('/api/v1/api-keys', { name: 'auditor', role: 'auditor' })).body;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('explains the decision with the rule that made it, as a call would meet it', async () => {
    const explain = (principal: string, tool: string) => h.api.post('/api/v1/access/explain', { principal, tool });
    expect((await explain(agent.id, 'ev__get-sum')).body).toMatchObject({ allowed: true, rule: 'allowedTools: "ev__get-sum" matches "ev__get-*"', principal: { name: 'getter', roles: ['agent'], allowedTools: ['ev__get-*'] } });
    expect((await explain(agent.id, 'ev__echo')).body).toMatchObject({ allowed: false, rule: 'allowedTools: "ev__echo" matches none of ["ev__get-*"]' });
    expect((await explain(auditor.id, 'ev__echo')).body).toMatchObject({ allowed: false, rule: 'role: auditor does not hold tools:invoke' });
    expect((await explain('admin', 'ev__echo')).body).toMatchObject({ allowed: true, rule: 'role: no tool restriction' });
    // The call itself agrees.
    expect((await makeApi(h.url, agent.key).post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'x' } })).status).toBe(403);
    expect((await makeApi(h.url, agent.key).post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: 2 } })).status).toBe(200);

    await h.api.delete(`/api/v1/api-keys/${agent.id}`);
    expect((await explain(agent.id, 'ev__get-sum')).body).toMatchObject({ allowed: false, rule: 'key: revoked' });
    expect((await explain('00000000-0000-4000-8000-000000000000', 'ev__echo')).body.error.code).toBe('API_KEY_NOT_FOUND');
    expect((await explain('admin', 'ev__nothing')).body.error.code).toBe('TOOL_NOT_FOUND');
    const paths = (await h.api.post('/api/v1/access/explain', { principal: 5 })).body.error.details.map((d: { path: string }) => d.path);
    expect([...new Set(paths)].sort()).toEqual(['principal', 'tool']);
  });

  it('lists the catalog as a key sees it, for admins only', async () => {
    const seen = await h.api.get(`/api/v1/tools?as=${agent.id}&limit=200`);
    const names = seen.body.items.map((t: { qualifiedName: string }) => t.qualifiedName);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name: string) => name.startsWith('ev__get-'))).toBe(true);
    expect((await makeApi(h.url, auditor.key).get(`/api/v1/tools?as=${agent.id}`)).body.error.code).toBe('FORBIDDEN');
    expect((await h.api.get('/api/v1/tools?as=nobody')).status).toBe(404);
  });
});

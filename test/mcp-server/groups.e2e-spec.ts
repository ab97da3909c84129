import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, MEMORY_DIR } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const EXECUTION = 'dev.toolplane/execution';
const WITH_EXECUTION = { [EXECUTION]: true };
const ARGUMENTS_ECHO = join(FIXTURES, 'arguments-echo-server.mjs');

type Mode = 'modern' | 'legacy';

/** The example of docs/groups.md: two tools of server-everything, one renamed, re-described and with its argument locked. */
const SUPPORT = {
  name: 'support',
  description: 'What the support bot may use',
  include: ['ev__echo', 'ev__get-sum'],
  overrides: { ev__echo: { name: 'say', description: 'Says the fixed phrase back', locked: { message: 'locked phrase' } } },
};

/** Tool groups end to end: REST CRUD, `/mcp/groups/{name}` in both eras, the REST catalog's views, calls and their records. */
describe('tool groups', () => {
  let h: Harness;
  let dir: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'groups-e2e-'));
    chmodSync(dir, 0o777);
    h = await startHarness();
    const sources = {
      ev: { command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG], env: {} },
      mem: { command: 'node', args: [`${MEMORY_DIR}/dist/index.js`, SUITE_TAG], env: { MEMORY_FILE_PATH: join(dir, 'memory.json') } },
      args: { command: 'node', args: [ARGUMENTS_ECHO, SUITE_TAG], env: {} },
    };
    for (const [name, spec] of Object.entries(sources)) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', ...spec, sandbox: { writablePaths: [dir] }, refreshIntervalSeconds: 0 });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    expect((await h.api.post('/api/v1/groups', SUPPORT)).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoSuiteProcesses();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const connect = async (path: string, mode: Mode, onChanged?: () => void) => {
    const client = new Client(
      { name: 'groups-e2e', version: '1' },
      {
        versionNegotiation: { mode: mode === 'modern' ? { pin: MODERN } : 'legacy' },
        ...(onChanged ? { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged } } } : {}),
      },
    );
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    return client;
  };
  const executionOf = async (result: any) => (await h.sql('SELECT * FROM executions WHERE id = $1', [result._meta[EXECUTION].id]))[0];
  const until = async (check: () => boolean | Promise<boolean>, ms = 3000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  };

  describe('/mcp/groups/{name}', () => {
    it.each<Mode>(['modern', 'legacy'])('serves the group under its names, with its overrides, and calls reach the upstream with the locked value (%s)', async (mode) => {
      const client = await connect('/mcp/groups/support', mode);
      const { tools } = await client.listTools({}, { cacheMode: 'bypass' });
      expect(tools.map((tool) => tool.name)).toEqual(['get-sum', 'say']);
      const say = tools.find((tool) => tool.name === 'say')!;
      expect(say.description).toBe('Says the fixed phrase back');
      expect(JSON.stringify(say.inputSchema)).not.toContain('message');

      const said: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'say', arguments: {} });
      expect(said.content).toEqual([{ type: 'text', text: 'Echo: locked phrase' }]);
      expect(await executionOf(said)).toMatchObject({ qualified_name: 'ev__echo', group_name: 'support', arguments: { message: 'locked phrase' }, status: 'succeeded', channel: 'mcp' });

      const sum: any = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
      expect(JSON.stringify(sum.content)).toContain('5');

      // A locked argument given anyway is refused with the rule, and nothing reaches the upstream.
      const locked: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'say', arguments: { message: 'my own' } });
      expect(locked.isError).toBe(true);
      expect(JSON.stringify(locked.content)).toContain('ARGUMENT_LOCKED');
      expect(await executionOf(locked)).toMatchObject({ status: 'invalid_arguments', group_name: 'support', attempts: 0, error: { code: 'ARGUMENT_LOCKED' } });

      // The tool's qualified name is not a name of the group.
      const other: any = await client.callTool({ name: 'ev__echo', arguments: { message: 'x' } }).catch((error: unknown) => error);
      expect([other.code, other.data?.code, other.message]).toEqual([-32602, 'TOOL_NOT_FOUND', 'Unknown tool: ev__echo']);
    });

    it.each<Mode>(['modern', 'legacy'])('serves a group selected by source from server-memory, less what it excludes (%s)', async (mode) => {
      const name = `knowledge-${mode}`;
      expect((await h.api.post('/api/v1/groups', { name, select: [{ sources: ['mem'] }], exclude: ['mem__delete_entities'] })).status).toBe(201);
      const memory = (await h.api.get('/api/v1/tools?source=mem&format=mcp&limit=100')).body.items.map((tool: { name: string }) => tool.name.replace('mem__', ''));
      const client = await connect(`/mcp/groups/${name}`, mode);
      const served = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
      expect(served).toEqual(memory.filter((tool: string) => tool !== 'delete_entities').sort());
      expect(served).toContain('create_entities');
      const created: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'read_graph', arguments: {} });
      expect(created.isError).toBeFalsy();
      expect(await executionOf(created)).toMatchObject({ qualified_name: 'mem__read_graph', group_name: name });
    });

    it.each<Mode>(['modern', 'legacy'])('tells its clients when the group changes (notifications/tools/list_changed, %s)', async (mode) => {
      const name = `changing-${mode}`;
      expect((await h.api.post('/api/v1/groups', { name, include: ['ev__echo'] })).status).toBe(201);
      let changes = 0;
      const client = await connect(`/mcp/groups/${name}`, mode, () => void changes++);
      expect((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)).toEqual(['echo']);
      await new Promise((r) => setTimeout(r, 300)); // the subscription (2026-07-28) or the standalone stream (2025 era) opens in the background
      expect((await h.api.patch(`/api/v1/groups/${name}`, { include: ['ev__echo', 'ev__get-sum'], overrides: { ev__echo: { name: 'repeat' } } })).status).toBe(200);
      expect(await until(() => changes > 0)).toBe(true);
      expect((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)).toEqual(['get-sum', 'repeat']);
    });

    it('reaches another process on the same database: a group made on one is served by the other within a second', async () => {
      const peer = await h.startPeer();
      try {
        expect((await peer.api.get('/api/v1/tools?group=elsewhere&format=mcp')).status).toBe(404);
        expect((await h.api.post('/api/v1/groups', { name: 'elsewhere', include: ['ev__get-sum'] })).status).toBe(201);
        const listed = async () => (await peer.api.get('/api/v1/tools?group=elsewhere&format=mcp')).body.items?.map((tool: { name: string }) => tool.name);
        expect(await until(async () => JSON.stringify(await listed()) === '["get-sum"]', 1000)).toBe(true);
        expect((await h.api.patch('/api/v1/groups/elsewhere', { overrides: { 'ev__get-sum': { name: 'add' } } })).status).toBe(200);
        expect(await until(async () => JSON.stringify(await listed()) === '["add"]', 1000)).toBe(true);
        expect((await h.api.delete('/api/v1/groups/elsewhere')).status).toBe(200);
        expect(await until(async () => (await peer.api.get('/api/v1/tools?group=elsewhere')).status === 404, 1000)).toBe(true);
      } finally {
        await peer.close();
      }
    }, 60_000);

    it('follows the inventory: a source registered later joins a selecting group under its qualified name, the tool already served keeps its name', async () => {
      expect((await h.api.post('/api/v1/groups', { name: 'echoes', select: [{ tools: ['*__echo'] }] })).status).toBe(201);
      let changes = 0;
      const client = await connect('/mcp/groups/echoes', 'modern', () => void changes++);
      expect((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)).toEqual(['echo']);
      await new Promise((r) => setTimeout(r, 300));
      const mirror = await h.api.post('/api/v1/sources', { name: 'mirror', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG], refreshIntervalSeconds: 0 });
      expect(mirror.status).toBe(201);
      expect(await until(() => changes > 0)).toBe(true);
      expect((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)).toEqual(['echo', 'mirror__echo']);
      const said: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'mirror__echo', arguments: { message: 'from the mirror' } });
      expect(await executionOf(said)).toMatchObject({ qualified_name: 'mirror__echo', group_name: 'echoes', status: 'succeeded' });
      // A tool disabled leaves the group (the catalog's usable rule), and comes back.
      expect((await h.api.patch('/api/v1/tools/ev__echo', { enabled: false })).status).toBe(200);
      expect(await until(async () => JSON.stringify((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)) === '["mirror__echo"]')).toBe(true);
      expect((await h.api.patch('/api/v1/tools/ev__echo', { enabled: true })).status).toBe(200);
      expect(await until(async () => JSON.stringify((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)) === '["echo","mirror__echo"]')).toBe(true);
      expect((await h.api.delete('/api/v1/sources/mirror')).status).toBe(204);
    }, 60_000);

    it('shows a restricted caller only the tools of the group its key allows, and refuses it the others', async () => {
      const key = (await h.api.post('/api/v1/api-keys', { name: 'sums-only', role: 'agent', allowedTools: ['ev__get-sum'] })).body.key;
      const client = new Client({ name: 'groups-e2e', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/groups/support`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      expect((await client.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name)).toEqual(['get-sum']);
      const refused: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'say', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(await executionOf(refused)).toMatchObject({ status: 'rejected', group_name: 'support', error: { code: 'TOOL_NOT_ALLOWED' } });
      const catalog = await fetch(`${h.url}/api/v1/tools?group=support&format=mcp`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await catalog.json()) as { items: { name: string }[] }).items.map((tool) => tool.name)).toEqual(['get-sum']);
    });

    it('answers 404 for a group that does not exist, in both eras', async () => {
      const eras: Record<string, string>[] = [{ 'mcp-protocol-version': LEGACY }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }];
      for (const headers of eras) {
        const response = await fetch(`${h.url}/mcp/groups/no-such-group`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ error: { code: -32001, message: 'No group named "no-such-group"', data: { code: 'GROUP_NOT_FOUND' } } });
      }
    });
  });

  describe('GET /api/v1/tools?group=', () => {
    it.each([
      ['mcp', false, (tool: any) => [tool.name, tool.inputSchema]],
      ['openai', false, (tool: any) => [tool.function.name, tool.function.parameters]],
      ['openai', true, (tool: any) => [tool.function.name, tool.function.parameters]],
      ['openai-responses', false, (tool: any) => [tool.name, tool.parameters]],
      ['openai-responses', true, (tool: any) => [tool.name, tool.parameters]],
      ['anthropic', false, (tool: any) => [tool.name, tool.input_schema]],
    ] as const)('lists the group in format %s (strict %s) under its names, the locked argument out of the schema', async (format, strict, read) => {
      const answer = await h.api.get(`/api/v1/tools?group=support&format=${format}${strict ? '&strict=true' : ''}`);
      expect(answer.status).toBe(200);
      const tools = answer.body.items.map(read);
      expect(tools.map(([name]: [string]) => name)).toEqual(['say', 'get-sum']);
      expect(JSON.stringify(tools[0][1])).not.toContain('message');
      expect(JSON.stringify(tools[1][1])).toContain('"a"');
      if (format !== 'mcp') expect(answer.body.notConvertible).toEqual([]);
    });

    it('answers 404 GROUP_NOT_FOUND for an unknown group', async () => {
      const answer = await h.api.get('/api/v1/tools?group=no-such-group&format=mcp');
      expect([answer.status, answer.body.error.code]).toEqual([404, 'GROUP_NOT_FOUND']);
    });
  });

  describe('POST /api/v1/groups/{name}/tools/{tool}/invoke', () => {
    beforeAll(async () => {
      const created = await h.api.post('/api/v1/groups', {
        name: 'repo-bot',
        include: ['args__arguments'],
        overrides: { args__arguments: { name: 'lookup', locked: { repo: 'acme/web' }, defaults: { limit: 5 } } },
      });
      expect(created.status).toBe(201);
    });

    it('sends the locked value and the defaults to the upstream, which answers what it received; the record keeps both and the group', async () => {
      const answer = await h.api.post('/api/v1/groups/repo-bot/tools/lookup/invoke', { arguments: { q: 'crash' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ qualifiedName: 'args__arguments', group: 'repo-bot', status: 'succeeded', arguments: { q: 'crash', limit: 5, repo: 'acme/web' } });
      expect(answer.body.result.structuredContent.received).toEqual({ q: 'crash', limit: 5, repo: 'acme/web' });
      // A default the caller gives is the caller's.
      const own = await h.api.post('/api/v1/groups/repo-bot/tools/lookup/invoke', { arguments: { q: 'crash', limit: 1 } });
      expect(own.body.result.structuredContent.received).toEqual({ q: 'crash', limit: 1, repo: 'acme/web' });
      const stored = await h.api.get(`/api/v1/executions/${answer.body.id}`);
      expect(stored.body).toMatchObject({ group: 'repo-bot', arguments: { q: 'crash', limit: 5, repo: 'acme/web' } });
    });

    it('also over MCP, in both eras', async () => {
      for (const mode of ['modern', 'legacy'] as const) {
        const client = await connect('/mcp/groups/repo-bot', mode);
        const result: any = await client.callTool({ name: 'lookup', arguments: { q: mode } });
        expect(result.structuredContent.received).toEqual({ q: mode, limit: 5, repo: 'acme/web' });
      }
    });

    it('refuses a locked argument with 400 ARGUMENT_LOCKED naming it and the group; an unknown group or name is 404', async () => {
      const locked = await h.api.post('/api/v1/groups/repo-bot/tools/lookup/invoke', { arguments: { q: 'x', repo: 'evil/repo' } });
      expect(locked.status).toBe(400);
      expect(locked.body.error).toMatchObject({ code: 'ARGUMENT_LOCKED', details: [{ path: 'arguments.repo', message: 'is locked by group "repo-bot"' }] });
      expect(locked.body.execution).toMatchObject({ status: 'invalid_arguments', group: 'repo-bot', attempts: 0 });
      const noGroup = await h.api.post('/api/v1/groups/no-such-group/tools/lookup/invoke', { arguments: {} });
      expect([noGroup.status, noGroup.body.error.code]).toEqual([404, 'GROUP_NOT_FOUND']);
      const noTool = await h.api.post('/api/v1/groups/repo-bot/tools/args__arguments/invoke', { arguments: {} });
      expect([noTool.status, noTool.body.error.code]).toEqual([404, 'TOOL_NOT_FOUND']);
    });

    it('lists the executions of a group with group=', async () => {
      const listed = await h.api.get('/api/v1/executions?group=repo-bot&limit=100');
      expect(listed.status).toBe(200);
      expect(listed.body.items.length).toBeGreaterThanOrEqual(3);
      expect(listed.body.items.every((item: { group: string }) => item.group === 'repo-bot')).toBe(true);
      const none = await h.api.get('/api/v1/executions?group=never-called');
      expect(none.body.items).toEqual([]);
    });
  });

  describe('/api/v1/groups', () => {
    it('creates, lists (paged), reads, changes and removes a group, each change in the audit trail', async () => {
      const created = await h.api.post('/api/v1/groups', { name: 'crud', description: 'first', select: [{ tools: ['ev__get-*'], annotations: { readOnlyHint: true } }] });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'crud', description: 'first', include: [], exclude: [], overrides: {}, mcpPath: '/mcp/groups/crud', version: 1 });
      expect((await h.api.post('/api/v1/groups', { name: 'crud' })).body.error.code).toBe('GROUP_NAME_TAKEN');

      const names: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await h.api.get(`/api/v1/groups?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        names.push(...page.body.items.map((group: { name: string }) => group.name));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(names).toContain('crud');
      expect(names).toEqual([...names].sort());

      expect((await h.api.get('/api/v1/groups/crud')).body).toMatchObject({ name: 'crud', description: 'first' });
      const changed = await h.api.patch('/api/v1/groups/crud', { description: 'second', exclude: ['ev__get-env'] });
      expect(changed.body).toMatchObject({ description: 'second', exclude: ['ev__get-env'], version: 2 });
      const removed = await h.api.delete('/api/v1/groups/crud');
      expect([removed.status, removed.body.name]).toEqual([200, 'crud']);
      for (const answer of [await h.api.get('/api/v1/groups/crud'), await h.api.patch('/api/v1/groups/crud', { description: 'x' }), await h.api.delete('/api/v1/groups/crud')]) {
        expect([answer.status, answer.body.error.code]).toEqual([404, 'GROUP_NOT_FOUND']);
      }

      const events = (await h.api.get('/api/v1/audit-events?targetType=group&limit=100')).body.items.filter((event: { targetName: string }) => event.targetName === 'crud');
      expect(events.map((event: { action: string }) => event.action).sort()).toEqual(['group.created', 'group.removed', 'group.updated']);
      expect(events.find((event: { action: string }) => event.action === 'group.updated').details).toEqual({ before: { description: 'first', exclude: [] }, after: { description: 'second', exclude: ['ev__get-env'] } });
    });

    it('refuses bad input listing every problem', async () => {
      const answer = await h.api.post('/api/v1/groups', {
        name: 'Bad Name',
        colour: 'blue',
        select: [{}, { sources: ['ok', 'bad pattern!'], tools: [], annotations: { readOnlyHint: 'yes', sneakyHint: true }, extra: 1 }],
        include: ['not a name'],
        exclude: 'ev__echo',
        overrides: {
          ev__echo: { name: 'a__b', colour: 'red', defaults: { x: 1 }, locked: { x: 2 } },
          'ev__get-sum': { name: 'dup' },
          'ev__get-env': { name: 'dup', annotations: { title: 'x' } },
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      const paths = answer.body.error.details.map((detail: { path: string }) => detail.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          'name',
          'colour',
          'select[0]',
          'select[1].extra',
          'select[1].sources[1]',
          'select[1].tools',
          'select[1].annotations.readOnlyHint',
          'select[1].annotations.sneakyHint',
          'include[0]',
          'exclude',
          'overrides.ev__echo.name',
          'overrides.ev__echo.colour',
          'overrides.ev__echo.defaults.x',
          'overrides.ev__get-env.name',
          'overrides.ev__get-env.annotations.title',
        ]),
      );
      const tooMany = await h.api.post('/api/v1/groups', { name: 'too-many', include: Array.from({ length: 1001 }, (_, i) => `ev__t${i}`) });
      expect(tooMany.body.error.details).toEqual([{ path: 'include', message: 'must hold at most 1000 names' }]);
      const renamed = await h.api.patch('/api/v1/groups/support', { name: 'other', select: 'x' });
      expect(renamed.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['name', 'select']);
    });

    it('is for admins only', async () => {
      const agent = await h.api.post('/api/v1/api-keys', { name: 'agent', role: 'agent' });
      for (const [method, path] of [
        ['GET', '/api/v1/groups'],
        ['POST', '/api/v1/groups'],
        ['GET', '/api/v1/groups/support'],
        ['PATCH', '/api/v1/groups/support'],
        ['DELETE', '/api/v1/groups/support'],
      ] as const) {
        const response = await fetch(`${h.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${agent.body.key}`, 'content-type': 'application/json' },
          ...(method === 'POST' || method === 'PATCH' ? { body: '{}' } : {}),
        });
        expect([method, path, response.status]).toEqual([method, path, 403]);
      }
    });
  });
});

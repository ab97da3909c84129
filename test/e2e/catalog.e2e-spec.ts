import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_CALLABLE_COUNT, FIXTURES } from '../helpers/upstreams.js';

const CHANGING = join(FIXTURES, 'changing-inventory-server.mjs');

interface FixtureTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const NESTED_SCHEMA = {
  type: 'object',
  properties: {
    customer: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', format: 'email' } },
      required: ['name'],
    },
    lines: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' }, qty: { type: 'integer', minimum: 1 } }, required: ['sku'] },
    },
    priority: { oneOf: [{ type: 'string', enum: ['low', 'high'] }, { type: 'integer' }] },
    note: { type: 'string', maxLength: 200 },
  },
  required: ['customer', 'lines'],
};

const INVENTORY: FixtureTool[] = [
  { name: 'repeater', description: 'Sends the echo of a message back to the caller', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, annotations: { readOnlyHint: true } },
  { name: 'nested', title: 'Place an order', description: 'Places an order for a customer', inputSchema: NESTED_SCHEMA, annotations: { destructiveHint: true } },
  {
    name: 'labeller',
    description: 'Stores labels',
    inputSchema: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['labels'] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  { name: 'switch-off', description: 'A tool an admin turns off', inputSchema: { type: 'object', properties: {} } },
  { name: 'vanishing', description: 'A tool that disappears upstream', inputSchema: { type: 'object', properties: {} } },
  { name: 'untitled', inputSchema: { type: 'object' } },
];

/** `required` in a fixed order: the inventory keeps schemas as jsonb, which does not keep the order of keys. */
function sortedRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sortedRequired);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === 'required' && Array.isArray(value) ? [...value].sort() : sortedRequired(value)]),
  );
}

const names = (body: { items: { qualifiedName?: string; name?: string }[] }): string[] => body.items.map((t) => t.qualifiedName ?? t.name ?? '');

describe('the agent catalog on GET /api/v1/tools', () => {
  let h: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-catalog-'));
  // Plugins run sandboxed as an unprivileged user and read their inventory files from here.
  chmodSync(dir, 0o755);
  const inventory = join(dir, 'tools.json');
  const otherInventory = join(dir, 'other.json');

  const publish = (tools: FixtureTool[]) => writeFileSync(inventory, JSON.stringify(tools));
  const list = (query: string) => h.api.get(`/api/v1/tools?${query}`);
  const conditional = (query: string, etag: string) => h.api.request('GET', `/api/v1/tools?${query}`, undefined, { headers: { 'if-none-match': etag } });

  beforeAll(async () => {
    h = await startHarness();
    publish(INVENTORY);
    writeFileSync(otherInventory, JSON.stringify([{ name: 'hidden', description: 'Belongs to a disabled source', inputSchema: { type: 'object' } }]));
    const sources = [
      { name: 'everything', transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'] },
      { name: 'inv', transport: 'stdio', command: 'node', args: [CHANGING], env: { INVENTORY_FILE: inventory }, sandbox: { readOnlyPaths: [dir] } },
      { name: 'other', transport: 'stdio', command: 'node', args: [CHANGING], env: { INVENTORY_FILE: otherInventory }, sandbox: { readOnlyPaths: [dir] } },
    ];
    for (const source of sources) {
      const created = await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source });
      expect(created.body).toMatchObject({ name: source.name, health: 'healthy' });
    }
    // One tool gone upstream (deprecated), one disabled by an admin, one source disabled.
    publish(INVENTORY.filter((t) => t.name !== 'vanishing'));
    expect((await h.api.post('/api/v1/sources/inv/refresh')).body).toMatchObject({ deprecated: 1 });
    expect((await h.api.patch('/api/v1/tools/inv__switch-off', { enabled: false })).status).toBe(200);
    expect((await h.api.patch('/api/v1/sources/other', { enabled: false })).status).toBe(200);
  });

  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('defaults and filters', () => {
    it('shows agents only active, enabled tools of enabled sources', async () => {
      const all = await list('limit=500');
      expect(all.status).toBe(200);
      const shown = names(all.body);
      expect(shown).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'inv__repeater', 'inv__nested', 'inv__labeller', 'inv__untitled']));
      expect(shown).not.toContain('inv__switch-off');
      expect(shown).not.toContain('inv__vanishing');
      expect(shown).not.toContain('other__hidden');
      expect(all.body.nextCursor).toBeNull();
    });

    it('lets an admin widen each default explicitly', async () => {
      expect(names((await list('enabled=false')).body)).toEqual(['inv__switch-off']);
      expect(names((await list('status=deprecated')).body)).toEqual(['inv__vanishing']);
      expect(names((await list('source=other')).body)).toEqual([]);
      expect(names((await list('source=other&includeDisabledSources=true')).body)).toEqual(['other__hidden']);
      const everything = names((await list('status=all&enabled=all&includeDisabledSources=true&limit=500')).body);
      expect(everything).toEqual(expect.arrayContaining(['inv__switch-off', 'inv__vanishing', 'other__hidden', 'everything__echo']));
      const invId = (await h.api.get('/api/v1/sources/inv')).body.id;
      expect(names((await list(`source=${invId}&status=all&enabled=all`)).body)).toEqual([
        'inv__labeller',
        'inv__nested',
        'inv__repeater',
        'inv__switch-off',
        'inv__untitled',
        'inv__vanishing',
      ]);
    });

    it('lists only the read-only tools of a read-only source by default', async () => {
      const before = await list('source=inv');
      await h.api.patch('/api/v1/sources/inv?wait=false', { readOnly: true });
      try {
        const readOnly = await list('source=inv');
        expect(names(readOnly.body)).toEqual(['inv__repeater']);
        expect(readOnly.headers.get('etag')).not.toBe(before.headers.get('etag'));
        expect(names((await list('source=inv&includeDisabledSources=true')).body)).toEqual(names(before.body));
      } finally {
        await h.api.patch('/api/v1/sources/inv?wait=false', { readOnly: false });
      }
      expect(names((await list('source=inv')).body)).toEqual(names(before.body));
    });

    it('filters on the annotation hints, with the MCP defaults for missing ones', async () => {
      expect(names((await list('source=inv&readOnly=true')).body)).toEqual(['inv__repeater']);
      expect(names((await list('source=inv&readOnly=false')).body)).toEqual(['inv__labeller', 'inv__nested', 'inv__untitled']);
      // destructiveHint defaults to true for tools that are not read-only.
      expect(names((await list('source=inv&destructive=true')).body)).toEqual(['inv__nested', 'inv__untitled']);
      expect(names((await list('source=inv&destructive=false')).body)).toEqual(['inv__labeller', 'inv__repeater']);
      // A read-only tool is idempotent; idempotentHint defaults to false.
      expect(names((await list('source=inv&idempotent=true')).body)).toEqual(['inv__labeller', 'inv__repeater']);
      expect(names((await list('source=inv&openWorld=false')).body)).toEqual(['inv__labeller']);
      expect(names((await list('source=everything&readOnly=true&limit=500')).body)).toContain('everything__echo');
    });
  });

  describe('search (q)', () => {
    it('ranks a name match above a description match', async () => {
      const found = names((await list('q=echo')).body);
      expect(found[0]).toBe('everything__echo');
      expect(found).toContain('inv__repeater'); // "Sends the echo of a message back"
      expect(found.indexOf('everything__echo')).toBeLessThan(found.indexOf('inv__repeater'));
    });

    it('finds tools by parts of their names', async () => {
      expect(names((await list('q=get-su')).body)[0]).toBe('everything__get-sum');
      expect(names((await list('q=structured')).body)).toContain('everything__get-structured-content');
      expect(names((await list('q=tructured-cont')).body)).toEqual(['everything__get-structured-content']); // substring
      expect(names((await list('q=inv__nest')).body)).toEqual(['inv__nested']);
    });

    it('searches titles and stemmed descriptions', async () => {
      expect(names((await list('q=order')).body)).toEqual(['inv__nested']); // title "Place an order"
      expect(names((await list('q=customers')).body)).toEqual(['inv__nested']); // description "… for a customer"
      expect(names((await list('q=no-such-words-anywhere')).body)).toEqual([]);
    });

    it('keeps the default filters while searching', async () => {
      expect(names((await list('q=switch-off')).body)).toEqual([]);
      expect(names((await list('q=switch-off&enabled=false')).body)).toEqual(['inv__switch-off']);
      expect(names((await list('q=hidden&includeDisabledSources=true')).body)).toEqual(['other__hidden']);
    });

    it("ranks as the gateway's search_tools does: a request's words find get-sum on both", async () => {
      expect(names((await list('q=add numbers')).body)[0]).toBe('everything__get-sum');
      const gateway = new Client({ name: 'catalog-e2e', version: '1' });
      await gateway.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/gateway`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
      try {
        for (const query of ['add two numbers', 'echo a message', 'get-su', 'order']) {
          const found = await gateway.callTool({ name: 'search_tools', arguments: { query, limit: 50 } });
          const viaGateway = (found.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name);
          expect({ query, first: viaGateway[0] }).toEqual({ query, first: names((await list(`q=${encodeURIComponent(query)}&limit=50`)).body)[0] });
          expect(names((await list(`q=${encodeURIComponent(query)}&limit=50&format=mcp`)).body)).toEqual(viaGateway);
        }
        const sum = await gateway.callTool({ name: 'search_tools', arguments: { query: 'add two numbers', limit: 3 } });
        expect((sum.structuredContent as { tools: { name: string }[] }).tools[0]!.name).toBe('everything__get-sum');
      } finally {
        await gateway.close();
      }
    });

    it('pages through ranked results without losing or repeating any', async () => {
      const whole = names((await list('q=get&limit=500')).body);
      expect(whole.length).toBeGreaterThan(5);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: { items: { qualifiedName: string }[]; nextCursor: string | null } } = await list(
          `q=get&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.status).toBe(200);
        paged.push(...names(page.body));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(paged).toEqual(whole);
      // A cursor belongs to its search.
      const first = await list('q=get&limit=2');
      expect((await list(`q=echo&limit=2&cursor=${first.body.nextCursor}`)).body.error.code).toBe('INVALID_CURSOR');
      expect((await list(`limit=2&cursor=${first.body.nextCursor}`)).body.error.code).toBe('INVALID_CURSOR');
    });
  });

  describe('formats', () => {
    let echo: { title: string; description: string; inputSchema: Record<string, unknown>; annotations: Record<string, unknown>; definition: Record<string, unknown> };
    const echoIn = async (format: string) => {
      const response = await list(`source=everything&q=echo&limit=1&format=${format}`);
      expect(response.status).toBe(200);
      return response.body;
    };

    beforeAll(async () => {
      echo = (await h.api.get('/api/v1/tools/everything__echo')).body;
      expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] });
    });

    it('mcp: MCP Tool objects under the qualified name, every field as declared and in its order', async () => {
      const body = await echoIn('mcp');
      expect(body).toEqual({
        items: [
          {
            name: 'everything__echo',
            title: 'Echo Tool',
            description: 'Echoes back the input string',
            inputSchema: echo.inputSchema,
            annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
            execution: { taskSupport: 'forbidden' },
          },
        ],
        nextCursor: null,
      });
      expect(JSON.stringify(body.items[0])).toBe(JSON.stringify({ ...echo.definition, name: 'everything__echo' }));
    });

    it('openai: Chat Completions function tools', async () => {
      const { $schema: _ignored, ...parameters } = echo.inputSchema;
      expect(await echoIn('openai')).toEqual({
        items: [{ type: 'function', function: { name: 'everything__echo', description: 'Echoes back the input string', parameters } }],
        nextCursor: null,
        notConvertible: [],
      });
    });

    it('openai-responses: Responses API function tools, strict always explicit', async () => {
      const { $schema: _ignored, ...parameters } = echo.inputSchema;
      expect(await echoIn('openai-responses')).toEqual({
        items: [{ type: 'function', name: 'everything__echo', description: 'Echoes back the input string', parameters, strict: false }],
        nextCursor: null,
        notConvertible: [],
      });
    });

    it('anthropic: Messages API tools', async () => {
      const { $schema: _ignored, ...inputSchema } = echo.inputSchema;
      expect(await echoIn('anthropic')).toEqual({
        items: [{ name: 'everything__echo', description: 'Echoes back the input string', input_schema: inputSchema }],
        nextCursor: null,
        notConvertible: [],
      });
    });

    it('strict=true: schemas OpenAI strict mode accepts, and the tools it cannot express named', async () => {
      const strictEcho = {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
        additionalProperties: false,
      };
      expect((await echoIn('openai&strict=true')).items).toEqual([
        { type: 'function', function: { name: 'everything__echo', description: 'Echoes back the input string', parameters: strictEcho, strict: true } },
      ]);
      expect((await echoIn('openai-responses&strict=true')).items).toEqual([
        { type: 'function', name: 'everything__echo', description: 'Echoes back the input string', parameters: strictEcho, strict: true },
      ]);

      const inv = (await list('source=inv&format=openai&strict=true')).body;
      expect(inv.notConvertible).toEqual([{ name: 'inv__labeller', reason: expect.stringContaining('$.properties.labels: is a map (additionalProperties)') }]);
      expect(inv.items.map((t: { function: { name: string } }) => t.function.name)).toEqual(['inv__nested', 'inv__repeater', 'inv__untitled']);
      const nested = sortedRequired(inv.items[0].function);
      expect(nested).toEqual({
        name: 'inv__nested',
        description: 'Places an order for a customer',
        strict: true,
        parameters: {
          type: 'object',
          properties: {
            customer: {
              type: 'object',
              properties: { name: { type: 'string' }, email: { type: ['string', 'null'], format: 'email' } },
              required: ['email', 'name'],
              additionalProperties: false,
            },
            lines: {
              type: 'array',
              items: {
                type: 'object',
                properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' }, qty: { type: ['integer', 'null'], minimum: 1 } },
                required: ['qty', 'sku'],
                additionalProperties: false,
              },
              minItems: 1,
            },
            priority: { anyOf: [{ type: 'string', enum: ['low', 'high'] }, { type: 'integer' }, { type: 'null' }] },
            note: { type: ['string', 'null'] },
          },
          required: ['customer', 'lines', 'note', 'priority'],
          additionalProperties: false,
        },
      });
      // No description and no title: a generated one.
      expect(inv.items[2].function).toEqual({
        name: 'inv__untitled',
        description: 'The "untitled" tool of the "inv" source.',
        strict: true,
        parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      });
    });

    it('gives every server-everything tool a valid function name in every format', async () => {
      for (const format of ['openai', 'openai-responses', 'anthropic']) {
        const body = (await list(`source=everything&format=${format}&limit=500`)).body;
        const fnNames = body.items.map((t: any) => t.function?.name ?? t.name);
        expect(fnNames.length + body.notConvertible.length).toBe(EVERYTHING_CALLABLE_COUNT);
        for (const name of fnNames) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      }
    });
  });

  describe('ETag and If-None-Match', () => {
    it('answers 304 without a body while the listing is unchanged, and a new tag after any change', async () => {
      const query = 'format=mcp&limit=500';
      const first = await list(query);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');

      const same = await conditional(query, etag);
      expect(same.status).toBe(304);
      expect(same.body).toBeUndefined();
      expect(same.headers.get('etag')).toBe(etag);
      expect((await conditional(query, `"stale", W/${etag}`)).status).toBe(304);
      expect((await conditional('format=openai&limit=500', etag)).status).toBe(200); // another representation

      // A refresh that changes nothing keeps the agents' tag; it moves lastSeenAt, so the full view's tag changes.
      // And the MCP catalog is not read again for it (past its 100 ms coalescing window).
      const catalogReads = () => h.process.logs().split('\n').filter((line) => line.includes('"msg":"catalog read:')).length;
      const admin = (await list('limit=500')).headers.get('etag')!;
      const readsBefore = catalogReads();
      expect((await h.api.post('/api/v1/sources/everything/refresh')).body).toMatchObject({ added: 0, changed: 0 });
      expect((await conditional(query, etag)).status).toBe(304);
      expect((await conditional('limit=500', admin)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(catalogReads()).toBe(readsBefore);

      // Each kind of change gives a new tag; a listing of one source is not touched by another's changes.
      const everythingOnly = (await list('source=everything&format=mcp')).headers.get('etag')!;
      let last = etag;
      const expectNewTag = async (what: string) => {
        const response = await conditional(query, last);
        expect({ what, status: response.status }).toEqual({ what, status: 200 });
        last = response.headers.get('etag')!;
        expect((await conditional(query, last)).status).toBe(304);
      };

      expect((await h.api.patch('/api/v1/tools/inv__repeater', { enabled: false })).status).toBe(200);
      await expectNewTag('tool disabled');
      expect((await h.api.patch('/api/v1/tools/inv__repeater', { enabled: true })).status).toBe(200);
      // Back to the same content: the same tag as before, and a 304 for it.
      expect((await conditional(query, etag)).status).toBe(304);
      last = etag;

      publish(INVENTORY.filter((t) => t.name !== 'vanishing').map((t) => (t.name === 'repeater' ? { ...t, description: 'Repeats a message' } : t)));
      const readsBeforeChange = catalogReads();
      expect((await h.api.post('/api/v1/sources/inv/refresh')).body).toMatchObject({ changed: 1 });
      await expectNewTag('description changed upstream');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(catalogReads()).toBeGreaterThan(readsBeforeChange);

      expect((await h.api.patch('/api/v1/sources/other', { enabled: true })).status).toBe(200);
      await expectNewTag('source enabled');

      const created = await h.api.post('/api/v1/sources', { name: 'late', transport: 'stdio', command: 'node', args: [CHANGING], env: { INVENTORY_FILE: otherInventory }, sandbox: { readOnlyPaths: [dir] } });
      expect(created.status).toBe(201);
      await expectNewTag('source registered');

      expect((await h.api.delete('/api/v1/sources/late')).status).toBe(204);
      await expectNewTag('source removed');

      expect((await conditional('source=everything&format=mcp', everythingOnly)).status).toBe(304);
    });
  });

  describe('bad requests', () => {
    it.each([
      ['an unknown format', 'format=yaml', 'VALIDATION_FAILED', ['format']],
      ['a bad cursor', 'cursor=!!!', 'INVALID_CURSOR', ['cursor']],
      ['an unknown filter', 'colour=blue', 'VALIDATION_FAILED', ['colour']],
      ['strict with anthropic', 'format=anthropic&strict=true', 'VALIDATION_FAILED', ['strict']],
      ['strict without a format', 'strict=true', 'VALIDATION_FAILED', ['strict']],
      ['bad hint values', 'readOnly=yes&openWorld=1', 'VALIDATION_FAILED', ['openWorld', 'readOnly']],
      ['every problem at once', 'format=xml&enabled=maybe&limit=0&cursor=!!!&x=1', 'VALIDATION_FAILED', ['cursor', 'enabled', 'format', 'limit', 'x']],
      ['a repeated parameter', 'q=a&q=b', 'VALIDATION_FAILED', ['q']],
    ])('refuses %s with 400', async (_what, query, code, paths) => {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(paths);
    });
  });
});

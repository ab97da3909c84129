import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoProcesses, expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_CALLABLE_COUNT, EVERYTHING_TOOL_COUNT, MEMORY_DIR, startEverythingHttp, type RunningUpstream } from '../helpers/upstreams.js';

const EVERYTHING_TOOLS = EVERYTHING_TOOL_COUNT;
const MEMORY_TOOLS = 9;

describe('registering real MCP servers', () => {
  let h: Harness;
  const dirs: string[] = [];
  const upstreams: RunningUpstream[] = [];
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.close();
    await Promise.all(upstreams.map((u) => u.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
    console.log(`register + discover timings (ms): ${JSON.stringify(timings)}`);
  });

  function pluginDir(file: string, manifest: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), 'toolplane-plugin-'));
    // Plugins run sandboxed as an unprivileged user: their directory must be readable by it, as an operator would make it.
    chmodSync(dir, 0o755);
    dirs.push(dir);
    writeFileSync(join(dir, file), JSON.stringify(manifest, null, 2));
    return dir;
  }

  async function register(body: Record<string, unknown>) {
    const started = performance.now();
    const response = await h.api.post('/api/v1/sources', body);
    timings[String(body.name)] = Math.round(performance.now() - started);
    return response;
  }

  it('registers server-everything over stdio from a server.json declaring a required secret', async () => {
    const dir = pluginDir('server.json', {
      name: 'io.github.modelcontextprotocol/server-everything',
      description: 'Exercises every MCP feature',
      version: '2026.8.31',
      packages: [
        {
          registryType: 'npm',
          identifier: EVERYTHING,
          version: '2026.8.31',
          runtimeHint: 'node',
          transport: { type: 'stdio' },
          packageArguments: [
            { type: 'positional', value: 'stdio' },
            { type: 'positional', value: SUITE_TAG },
          ],
          environmentVariables: [
            { name: 'EVERYTHING_TOKEN', description: 'An API token', isRequired: true, isSecret: true },
            { name: 'EVERYTHING_MODE', isRequired: false, default: 'full', choices: ['full', 'lite'] },
          ],
        },
      ],
    });
    // Without the secret the registration fails, naming the variable.
    const missing = await h.api.post('/api/v1/sources', { name: 'everything-stdio', transport: 'stdio', pluginDir: dir });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ path: 'env.EVERYTHING_TOKEN', message: expect.stringContaining('required by server.json') }]);

    expect((await h.api.put('/api/v1/secrets/EVERYTHING_TOKEN', { value: 's3cr3t-token-value' })).status).toBe(201);
    const created = await register({
      name: 'everything-stdio',
      transport: 'stdio',
      pluginDir: dir,
      env: { EVERYTHING_TOKEN: '${secret:EVERYTHING_TOKEN}', EVERYTHING_MODE: 'lite' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'everything-stdio',
      transport: 'stdio',
      lifecycle: 'transient',
      command: 'node',
      args: [EVERYTHING, 'stdio', SUITE_TAG],
      health: 'healthy',
      lastError: null,
      toolCount: EVERYTHING_TOOLS,
      protocol: { era: 'legacy', version: '2025-11-25' },
      manifest: { file: 'server.json', name: 'io.github.modelcontextprotocol/server-everything' },
    });
    expect(created.body.env).toEqual([
      { name: 'EVERYTHING_MODE', origin: 'literal', references: [], declared: true, isSecret: false, isRequired: false, value: 'lite' },
      { name: 'EVERYTHING_TOKEN', origin: 'reference', references: ['secret:EVERYTHING_TOKEN'], declared: true, isSecret: true, isRequired: true },
    ]);
    expect(JSON.stringify(created.body)).not.toContain('s3cr3t-token-value');

    const tools = await h.api.get('/api/v1/tools?source=everything-stdio');
    // The catalog offers what agents can call: the task-only tool too (it is called as a task upstream).
    expect(tools.body.items).toHaveLength(EVERYTHING_CALLABLE_COUNT);
    const taskOnly = await h.api.get('/api/v1/tools/everything-stdio__simulate-research-query');
    expect(taskOnly.body).toMatchObject({ unusableReason: null, definition: { execution: { taskSupport: 'required' } } });
    const echo = tools.body.items.find((t: { name: string }) => t.name === 'echo');
    expect(echo).toMatchObject({
      qualifiedName: 'everything-stdio__echo',
      status: 'active',
      enabled: true,
      annotations: expect.objectContaining({ readOnlyHint: true }),
      inputSchema: expect.objectContaining({ type: 'object', properties: expect.objectContaining({ message: expect.objectContaining({ type: 'string' }) }) }),
    });
    const structured = tools.body.items.find((t: { name: string }) => t.name === 'get-structured-content');
    expect(structured.outputSchema).toEqual(expect.objectContaining({ type: 'object' }));
    // A transient source leaves no process behind once discovery is done.
    await expectNoSuiteProcesses();
  });

  it('registers server-everything over streamable HTTP', async () => {
    const upstream = await startEverythingHttp('streamableHttp');
    upstreams.push(upstream);
    const created = await register({ name: 'everything-http', transport: 'streamable-http', url: upstream.url });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: EVERYTHING_TOOLS, url: upstream.url });
    const one = await h.api.get('/api/v1/tools/everything-http__get-sum');
    expect(one.status).toBe(200);
    expect(one.body.inputSchema.properties).toEqual(expect.objectContaining({ a: expect.any(Object), b: expect.any(Object) }));
  });

  it('registers server-everything over SSE', async () => {
    const upstream = await startEverythingHttp('sse');
    upstreams.push(upstream);
    const created = await register({
      name: 'everything-sse',
      transport: 'sse',
      url: upstream.url,
      headers: { 'X-Team': 'platform' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: EVERYTHING_TOOLS });
    expect(created.body.headers).toEqual([{ name: 'X-Team', origin: 'literal', references: [], declared: false, isSecret: false, isRequired: false }]);
  });

  it('registers server-memory through a plugin.json', async () => {
    const dir = pluginDir('plugin.json', {
      name: 'memory',
      version: '1.0.0',
      description: 'Knowledge graph memory',
      packages: [
        {
          name: 'memory',
          transport_type: 'stdio',
          runtime: 'node',
          command: [join(MEMORY_DIR, 'dist/index.js'), `memory-${SUITE_TAG}`],
          environment_variables: [{ name: 'MEMORY_FILE_PATH', required: false, secret: false, default: join(dir0(), 'memory.jsonl') }],
        },
      ],
    });
    // The memory file's directory (its default lies next to the read-only script) is made writable for the plugin.
    chmodSync(dir0(), 0o777);
    const created = await register({ name: 'memory', transport: 'stdio', pluginDir: dir, lifecycle: 'singleton', sandbox: { writablePaths: [dir0()] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: MEMORY_TOOLS, lifecycle: 'singleton', manifest: { file: 'plugin.json' } });
    const tools = await h.api.get('/api/v1/tools?source=memory&limit=5');
    expect(tools.body.items).toHaveLength(5);
    const rest = await h.api.get(`/api/v1/tools?source=memory&limit=5&cursor=${tools.body.nextCursor}`);
    expect(rest.body.items).toHaveLength(MEMORY_TOOLS - 5);
    expect(rest.body.nextCursor).toBeNull();
    const names = [...tools.body.items, ...rest.body.items].map((t: { name: string }) => t.name);
    expect(new Set(names).size).toBe(MEMORY_TOOLS);
    expect(names).toContain('create_entities');
  });

  it('lists, refreshes, disables and removes sources', async () => {
    const list = await h.api.get('/api/v1/sources');
    expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(['memory', 'everything-sse', 'everything-http', 'everything-stdio']);

    const refreshed = await h.api.post('/api/v1/sources/everything-stdio/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ added: 0, changed: 0, deprecated: 0, restored: 0, unchanged: EVERYTHING_TOOLS });

    const disabled = await h.api.patch('/api/v1/sources/memory', { enabled: false });
    expect(disabled.body.enabled).toBe(false);
    await expectNoProcesses([`memory-${SUITE_TAG}`]); // the singleton process is gone with the pool
    expect((await h.api.post('/api/v1/sources/memory/refresh')).body.error.code).toBe('SOURCE_DISABLED');

    const removed = await h.api.delete('/api/v1/sources/everything-http');
    expect(removed.status).toBe(204);
    expect((await h.api.get('/api/v1/sources/everything-http')).status).toBe(404);
    expect((await h.api.get('/api/v1/tools?source=everything-http')).body.items).toEqual([]);
    const kept = await h.sql(`SELECT count(*)::int AS n FROM source_tools t JOIN sources s ON s.id = t.source_id WHERE s.name = 'everything-http'`);
    expect(kept[0].n).toBe(EVERYTHING_TOOLS); // history kept

    // The name is free again, and the new source's tools take the qualified names back.
    const again = await h.api.post('/api/v1/sources', { name: 'everything-http', transport: 'streamable-http', url: upstreams[0]!.url });
    expect(again.status).toBe(201);
    expect((await h.api.get('/api/v1/tools/everything-http__echo')).body.source.id).toBe(again.body.id);

    const audit = await h.api.get('/api/v1/audit-events?targetType=source&limit=100');
    expect(audit.body.items.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['source.registered', 'source.refreshed', 'source.disabled', 'source.removed']),
    );
  });

  function dir0(): string {
    return dirs[0] ?? tmpdir();
  }
});

import { McpInventoryFetcher } from '../../src/upstream/mcp-inventory-fetcher.js';
import { liveStdioProcessIds } from '../../src/upstream/stdio/process-registry.js';
import { TransportFactory } from '../../src/upstream/transport-factory.js';
import { UpstreamError } from '../../src/upstream/upstream-error.js';
import { EVERYTHING_TOOL_COUNT } from '../helpers/upstreams.js';
import { eventually, isRunning, paths, processTag, processesMatching, scratchDir, stdioTarget, tool, type Scratch } from './mcp-test-support.js';
import { OffThreadSchemaCompiler } from '../../src/shared/off-thread/off-thread-schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';

const node = process.execPath;
const EVERYTHING_TOOLS = EVERYTHING_TOOL_COUNT;
const MEMORY_TOOLS = 9;

/** A hand-written 2025-era server that answers initialize and tools/list only and drops everything else. */
const IGNORES_UNKNOWN_METHODS = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') {
    send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'silent-legacy', version: '1' } } });
  } else if (msg.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'only-tool', inputSchema: { type: 'object' } }] } });
  }
});
`;

describe('MCP discovery over stdio', () => {
  let factory: TransportFactory;
  let fetcher: McpInventoryFetcher;
  let scratch: Scratch;
  let tag: string;

  beforeEach(() => {
    factory = new TransportFactory();
    fetcher = new McpInventoryFetcher(factory, new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS));
    scratch = scratchDir();
    tag = processTag();
  });

  afterEach(async () => {
    await factory.closeAll();
    scratch.remove();
    expect(liveStdioProcessIds()).toEqual([]);
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
  });

  test('server-everything, transient: every tool with schemas and annotations, no process left', async () => {
    const result = await fetcher.discover(stdioTarget(node, [paths.everything, 'stdio', tag]), { timeoutMs: 15_000 });

    expect(result.era).toBe('legacy');
    expect(result.protocolVersion).toBe('2025-11-25');
    expect(result.serverInfo).toEqual({ name: 'mcp-servers/everything', version: '2.0.0' });
    expect(result.discoverResult).toBeUndefined();
    expect(result.tools).toHaveLength(EVERYTHING_TOOLS);
    const getEnv = result.tools.find((t) => t.name === 'get-env');
    expect(getEnv).toMatchObject({
      title: 'Print Environment Tool',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      inputSchema: { type: 'object', properties: {} },
    });
    const echo = result.tools.find((t) => t.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    // transient: closed before discover() resolved
    expect(processesMatching(tag)).toEqual([]);
  });

  test('server-everything, singleton: one long-lived process reused across discoveries, killed on release', async () => {
    const target = stdioTarget(node, [paths.everything, 'stdio', tag], { lifecycle: 'singleton' });

    const first = await fetcher.discover(target, { timeoutMs: 15_000 });
    expect(first.tools).toHaveLength(EVERYTHING_TOOLS);
    const pids = liveStdioProcessIds();
    expect(pids).toHaveLength(1);
    expect(processesMatching(tag)).toEqual(pids);

    const second = await fetcher.discover({ ...target, era: first.era }, { timeoutMs: 15_000 });
    expect(second.tools).toHaveLength(EVERYTHING_TOOLS);
    expect(liveStdioProcessIds()).toEqual(pids);

    await fetcher.release(target.sourceId);
    expect(liveStdioProcessIds()).toEqual([]);
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('concurrent discoveries of a singleton share one process', async () => {
    const target = stdioTarget(node, [paths.everything, 'stdio', tag], { lifecycle: 'singleton' });
    const results = await Promise.all([1, 2, 3].map(() => fetcher.discover(target, { timeoutMs: 15_000 })));
    expect(results.map((r) => r.tools.length)).toEqual([EVERYTHING_TOOLS, EVERYTHING_TOOLS, EVERYTHING_TOOLS]);
    expect(processesMatching(tag)).toHaveLength(1);
  });

  test('release() stops a singleton connect under way at once', async () => {
    const target = stdioTarget(node, ['-e', 'setInterval(() => {}, 1000)', tag], { lifecycle: 'singleton' });
    const discovery = fetcher.discover(target, { timeoutMs: 20_000 });
    expect(await eventually(() => processesMatching(tag).length === 1)).toBe(true);
    const startedAt = Date.now();
    await fetcher.release(target.sourceId);
    await expect(discovery).rejects.toThrow('cancelled while connecting: the connection was released');
    expect(Date.now() - startedAt).toBeLessThan(3000);
    expect(processesMatching(tag)).toEqual([]);
  });

  test('a singleton is replaced when its configuration changes, and restarted when it died', async () => {
    const target = stdioTarget(node, [paths.everything, 'stdio', tag], { lifecycle: 'singleton' });
    await fetcher.discover(target, { timeoutMs: 15_000 });
    const [firstPid] = liveStdioProcessIds();

    await fetcher.discover({ ...target, env: { SOME_SETTING: 'changed' } }, { timeoutMs: 15_000 });
    const [secondPid] = liveStdioProcessIds();
    expect(secondPid).not.toBe(firstPid);
    expect(await eventually(() => !isRunning(firstPid!))).toBe(true);
    expect(liveStdioProcessIds()).toHaveLength(1);

    process.kill(-secondPid!, 'SIGKILL');
    expect(await eventually(() => liveStdioProcessIds().length === 0)).toBe(true);
    const again = await fetcher.discover({ ...target, env: { SOME_SETTING: 'changed' } }, { timeoutMs: 15_000 });
    expect(again.tools).toHaveLength(EVERYTHING_TOOLS);
    expect(liveStdioProcessIds()).toHaveLength(1);
    expect(liveStdioProcessIds()[0]).not.toBe(secondPid);
  });

  test('server-memory', async () => {
    const target = stdioTarget(node, [paths.memory, tag], { env: { MEMORY_FILE_PATH: scratch.file('memory.jsonl') } });
    const result = await fetcher.discover(target, { timeoutMs: 15_000 });
    expect(result.era).toBe('legacy');
    expect(result.tools.map((t) => t.name).sort()).toEqual(
      [
        'add_observations',
        'create_entities',
        'create_relations',
        'delete_entities',
        'delete_observations',
        'delete_relations',
        'open_nodes',
        'read_graph',
        'search_nodes',
      ].sort(),
    );
    expect(result.tools).toHaveLength(MEMORY_TOOLS);
  });

  test('walks every page and sees the inventory change between refreshes', async () => {
    const inventory = scratch.write('inventory.json', ['a', 'b', 'c', 'd', 'e'].map((name) => tool(name)));
    const target = stdioTarget(node, [paths.changingInventory, tag], { env: { INVENTORY_FILE: inventory, PAGE_SIZE: '2' } });

    const first = await fetcher.discover(target, { timeoutMs: 10_000 });
    expect(first.tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(first.era).toBe('modern');

    const listed = [
      tool('a'),
      tool('c', { description: 'changed', title: 'Tool C', annotations: { title: 'Annotated C', destructiveHint: true } }),
      tool('f', { outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }),
    ];
    scratch.write('inventory.json', listed);
    const second = await fetcher.discover({ ...target, era: first.era, discoverResult: first.discoverResult }, { timeoutMs: 10_000 });
    // Each tool as listed, in its key order, and the fields Toolplane reads from it.
    expect(second.tools.map((t) => JSON.stringify(t.declared))).toEqual(listed.map((t) => JSON.stringify(t)));
    expect(second.tools.map(({ declared: _declared, ...read }) => read)).toEqual([
      { name: 'a', description: 'the a tool', inputSchema: { type: 'object', properties: {} } },
      {
        name: 'c',
        title: 'Tool C',
        description: 'changed',
        inputSchema: { type: 'object', properties: {} },
        annotations: { title: 'Annotated C', destructiveHint: true },
      },
      {
        name: 'f',
        description: 'the f tool',
        inputSchema: { type: 'object', properties: {} },
        outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
    ]);
  });

  test('a repeating cursor and the page cap stop the walk with an error', async () => {
    const looping = scratch.write('loop.json', { tools: [tool('a')], repeatCursor: true });
    const target = stdioTarget(node, [paths.changingInventory, tag], { env: { INVENTORY_FILE: looping } });
    await expect(fetcher.discover(target, { timeoutMs: 10_000 })).rejects.toThrow('tools/list pagination loops: cursor repeated after page 2');

    const many = scratch.write('many.json', Array.from({ length: 9 }, (_, i) => tool(`t${i}`)));
    const capped = new McpInventoryFetcher(factory, new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS), { maxPages: 3, maxTools: 100 });
    const manyTarget = stdioTarget(node, [paths.changingInventory, tag], { env: { INVENTORY_FILE: many, PAGE_SIZE: '2' } });
    await expect(capped.discover(manyTarget, { timeoutMs: 10_000 })).rejects.toThrow('tools/list did not end within 3 pages');
    const fewTools = new McpInventoryFetcher(factory, new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS), { maxPages: 100, maxTools: 4 });
    await expect(fewTools.discover(manyTarget, { timeoutMs: 10_000 })).rejects.toThrow('server lists more than 4 tools');
  });

  test('a 2026-07-28 server over stdio: modern era, reused later without a probe and with one process each time', async () => {
    const spawnLog = scratch.file('spawns.log');
    const target = stdioTarget(node, [paths.modern, 'stdio', tag], { env: { SPAWN_LOG: spawnLog } });

    const first = await fetcher.discover(target, { timeoutMs: 10_000 });
    expect(first.era).toBe('modern');
    expect(first.protocolVersion).toBe('2026-07-28');
    expect(first.serverInfo).toEqual({ name: 'modern-fixture', version: '1.2.3' });
    expect(first.discoverResult).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });
    expect(first.tools.map((t) => t.name)).toEqual(['echo', 'add', 'list-env-keys']);
    expect(first.tools.find((t) => t.name === 'add')?.outputSchema).toEqual({
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    });
    expect(first.tools.find((t) => t.name === 'list-env-keys')?.annotations).toEqual({
      title: 'Environment keys',
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(scratch.lines('spawns.log')).toHaveLength(1);

    // The recorded verdict survives a JSON round trip (it is persisted between discoveries).
    const recorded = JSON.parse(JSON.stringify({ era: first.era, discoverResult: first.discoverResult }));
    const second = await fetcher.discover({ ...target, ...recorded }, { timeoutMs: 10_000 });
    expect(second).toEqual(first);
    expect(scratch.lines('spawns.log')).toHaveLength(2);
  });

  test('a legacy era recorded for a server that is now modern-only is re-negotiated', async () => {
    const target = stdioTarget(node, [paths.modern, 'stdio', tag], { era: 'legacy' });
    const result = await fetcher.discover(target, { timeoutMs: 10_000 });
    expect(result.era).toBe('modern');
  });

  test('a legacy server that silently ignores the probe is discovered within the budget', async () => {
    const target = stdioTarget(node, ['-e', IGNORES_UNKNOWN_METHODS, tag]);
    const startedAt = Date.now();
    const result = await fetcher.discover(target, { timeoutMs: 3000 });
    expect(Date.now() - startedAt).toBeLessThan(3000);
    expect(result).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18', serverInfo: { name: 'silent-legacy' } });
    expect(result.tools.map((t) => t.name)).toEqual(['only-tool']);
  });

  test('a crashing server: the error carries the exit code and its stderr', async () => {
    const target = stdioTarget(node, [paths.crashing, tag]);
    const error = await fetcher.discover(target, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('process');
    expect((error as Error).message).toBe('process exited with code 3: fatal: cannot open the widget database');
  });

  test('a missing command', async () => {
    const target = stdioTarget('toolplane-definitely-not-installed', []);
    await expect(fetcher.discover(target, { timeoutMs: 10_000 })).rejects.toThrow('command not found: toolplane-definitely-not-installed');
  });

  test('configuration problems are reported as such', async () => {
    const badCwd = stdioTarget(node, [paths.modern, 'stdio'], { cwd: scratch.file('missing-dir') });
    await expect(fetcher.discover(badCwd, { timeoutMs: 5000 })).rejects.toThrow(`working directory does not exist: ${scratch.file('missing-dir')}`);
    const badEnv = stdioTarget(node, [paths.modern, 'stdio'], { env: { 'BAD=NAME': 'value' } });
    await expect(fetcher.discover(badEnv, { timeoutMs: 5000 })).rejects.toMatchObject({
      kind: 'configuration',
      message: 'invalid environment variable name: "BAD=NAME"',
    });
    const noUrl = { ...stdioTarget(node, []), transport: 'streamable-http' as const };
    await expect(fetcher.discover(noUrl, { timeoutMs: 5000 })).rejects.toThrow('streamable-http source has no url');
  });

  test('the declared environment reaches the server; Toolplane secrets do not, nor appear in errors', async () => {
    const saved = { ...process.env };
    process.env.DATABASE_URL = 'postgres://user:hunter2@db/toolplane';
    process.env.TOOLPLANE_ENCRYPTION_KEY = 'k'.repeat(64);
    try {
      const target = stdioTarget(node, [paths.modern, 'stdio', tag], { env: { UPSTREAM_API_KEY: 'sk-declared-secret' } });
      const keys = await factory.withClient(
        target,
        async ({ client, requestOptions }) => {
          const result = await client.callTool({ name: 'list-env-keys', arguments: {} }, requestOptions());
          return JSON.parse((result.content as { text: string }[])[0]!.text) as string[];
        },
        { timeoutMs: 10_000 },
      );
      expect(keys).toContain('UPSTREAM_API_KEY');
      expect(keys).toContain('PATH');
      expect(keys).not.toContain('DATABASE_URL');
      expect(keys.filter((key) => key.startsWith('TOOLPLANE_'))).toEqual([]);

      const crashing = stdioTarget(node, ['-e', 'console.error("token is " + process.env.UPSTREAM_API_KEY); process.exit(1)'], {
        env: { UPSTREAM_API_KEY: 'sk-declared-secret' },
      });
      const error = (await fetcher.discover(crashing, { timeoutMs: 10_000 }).catch((e: unknown) => e)) as Error;
      expect(error.message).toBe('process exited with code 1: token is [redacted]');
    } finally {
      process.env = saved;
    }
  });

  test('the time budget covers a server that never answers, and the process is killed', async () => {
    const target = stdioTarget(node, ['-e', 'setInterval(() => {}, 1000)', tag]);
    const startedAt = Date.now();
    await expect(fetcher.discover(target, { timeoutMs: 1500 })).rejects.toThrow('timed out after 1500 ms');
    expect(Date.now() - startedAt).toBeLessThan(4000);
  });

  const BANNER = String.raw`"\u001b[32mWeather MCP v1.4\u001b[0m listening on http://localhost:3000\nPress Ctrl+C to stop"`;
  const BANNER_STDERR = 'weather: using the HTTP transport (set WEATHER_TRANSPORT=stdio for MCP over stdio)';

  test.each(['transient', 'singleton'] as const)('a %s plugin that writes a banner on stdout and never speaks MCP fails at once, quoting it and its stderr', async (lifecycle) => {
    const target = stdioTarget(node, [paths.banner, tag], { lifecycle });
    const startedAt = Date.now();
    const error = (await fetcher.discover(target, { timeoutMs: 30_000 }).catch((e: unknown) => e)) as UpstreamError;
    expect(Date.now() - startedAt).toBeLessThan(5000);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.kind).toBe('protocol');
    expect(error.message).toBe(`the plugin wrote ${BANNER} on stdout; MCP needs JSON-RPC there; its stderr ends with: ${BANNER_STDERR}`);
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
  });

  test('a plugin that writes a banner and then speaks MCP is discovered', async () => {
    const result = await fetcher.discover(stdioTarget(node, [paths.banner, tag], { env: { BANNER_THEN_SERVE: '1' } }), { timeoutMs: 15_000 });
    expect(result.serverInfo).toEqual({ name: 'banner-server', version: '1.0.0' });
    expect(result.tools.map((t) => t.name)).toEqual(['forecast']);
  });

  test.each(['transient', 'singleton'] as const)('a %s plugin that hangs silently times out with its stderr', async (lifecycle) => {
    const hanging = stdioTarget(node, [paths.hanging, tag], { lifecycle });
    await expect(fetcher.discover(hanging, { timeoutMs: 1500 })).rejects.toThrow(
      'timed out after 1500 ms connecting: the plugin wrote nothing on stdout; its stderr ends with: hanging: waiting for a licence server that never answers',
    );
    const mute = stdioTarget(node, ['-e', 'setInterval(() => {}, 1000)', tag], { lifecycle });
    await expect(fetcher.discover(mute, { timeoutMs: 1500 })).rejects.toThrow('timed out after 1500 ms connecting: the plugin wrote nothing on stdout or stderr');
  });

  test('an abort signal cancels a discovery under way', async () => {
    const target = stdioTarget(node, ['-e', 'setInterval(() => {}, 1000)', tag]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the source was removed')), 300);
    await expect(fetcher.discover(target, { timeoutMs: 10_000, signal: controller.signal })).rejects.toThrow(
      'cancelled while connecting: the source was removed',
    );
  });
});

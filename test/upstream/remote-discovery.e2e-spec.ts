import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { McpInventoryFetcher } from '../../src/upstream/mcp-inventory-fetcher.js';
import { TransportFactory } from '../../src/upstream/transport-factory.js';
import { UpstreamError } from '../../src/upstream/upstream-error.js';
import { EVERYTHING_TOOL_COUNT } from '../helpers/upstreams.js';
import { closedPort, eventually, paths, processTag, processesMatching, remoteTarget, startHttpServer, type RunningServer } from './mcp-test-support.js';
import { OffThreadSchemaCompiler } from '../../src/shared/off-thread/off-thread-schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';

const EVERYTHING_TOOLS = EVERYTHING_TOOL_COUNT;

describe('MCP discovery over HTTP', () => {
  let factory: TransportFactory;
  let fetcher: McpInventoryFetcher;
  let servers: RunningServer[];
  let tag: string;

  beforeEach(() => {
    factory = new TransportFactory();
    fetcher = new McpInventoryFetcher(factory, new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS));
    servers = [];
    tag = processTag();
  });

  afterEach(async () => {
    await factory.closeAll();
    await Promise.all(servers.map((server) => server.stop()));
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
  });

  async function start(args: string[], port?: number): Promise<RunningServer> {
    const server = await startHttpServer([...args, tag], {}, port);
    servers.push(server);
    return server;
  }

  test('server-everything over Streamable HTTP', async () => {
    const server = await start([paths.everything, 'streamableHttp']);
    const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);

    const result = await fetcher.discover(target, { timeoutMs: 15_000 });
    expect(result.era).toBe('legacy');
    expect(result.protocolVersion).toBe('2025-11-25');
    expect(result.tools).toHaveLength(EVERYTHING_TOOLS);
    expect(result.tools.find((t) => t.name === 'get-env')?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(result.tools.find((t) => t.name === 'get-sum')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });

    // One pooled client per source: the next discovery (with the recorded era) reuses it.
    const connections = new Set<unknown>();
    for (let i = 0; i < 2; i++) {
      await factory.withClient({ ...target, era: 'legacy' }, async ({ connection }) => connections.add(connection), { timeoutMs: 5000 });
    }
    expect(connections.size).toBe(1);
    expect(factory.pooledSourceIds()).toEqual([target.sourceId]);
    await fetcher.release(target.sourceId);
    expect(factory.pooledSourceIds()).toEqual([]);
  });

  test('server-everything over SSE', async () => {
    const server = await start([paths.everything, 'sse']);
    const target = remoteTarget('sse', `http://127.0.0.1:${server.port}/sse`);

    const result = await fetcher.discover(target, { timeoutMs: 15_000 });
    expect(result.era).toBe('legacy');
    expect(result.tools).toHaveLength(EVERYTHING_TOOLS);
    expect(result.tools.find((t) => t.name === 'echo')?.inputSchema).toMatchObject({ properties: { message: { type: 'string' } } });
    expect(result.tools.find((t) => t.name === 'get-env')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  test('an SSE endpoint registered as Streamable HTTP fails with the transport to use instead', async () => {
    const server = await start([paths.everything, 'sse']);
    const url = `http://127.0.0.1:${server.port}/sse`;
    const error = (await fetcher.discover(remoteTarget('streamable-http', url), { timeoutMs: 10_000 }).catch((e: unknown) => e)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain(url);
    expect(error.message).toMatch(/speaks the legacy SSE transport: register it with transport: sse/);
    // A Streamable HTTP server's own 404 suggests nothing of the kind.
    const modern = await start([paths.modern, 'http', '--port', '{port}']);
    const wrong = `http://127.0.0.1:${modern.port}/sse`;
    const other = (await fetcher.discover(remoteTarget('streamable-http', wrong), { timeoutMs: 5000 }).catch((e: unknown) => e)) as UpstreamError;
    expect(other.message).not.toMatch(/transport: sse/);
  });

  test('a 2026-07-28 server over Streamable HTTP, then again from the recorded verdict', async () => {
    const server = await start([paths.modern, 'http', '--port', '{port}']);
    const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);

    const first = await fetcher.discover(target, { timeoutMs: 10_000 });
    expect(first.era).toBe('modern');
    expect(first.protocolVersion).toBe('2026-07-28');
    expect(first.tools.map((t) => t.name)).toEqual(['echo', 'add', 'list-env-keys']);
    expect(first.discoverResult).toMatchObject({ supportedVersions: ['2026-07-28'] });

    await fetcher.release(target.sourceId);
    const second = await fetcher.discover({ ...target, era: 'modern', discoverResult: first.discoverResult }, { timeoutMs: 10_000 });
    expect(second).toEqual(first);
  });

  test('a pooled remote connection is re-established after the server restarted', async () => {
    const server = await start([paths.everything, 'streamableHttp']);
    const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
    await fetcher.discover(target, { timeoutMs: 15_000 });

    await server.stop();
    await start([paths.everything, 'streamableHttp'], server.port);
    // The old session is unknown to the new process: that use fails, and the next one reconnects.
    await fetcher.discover(target, { timeoutMs: 15_000 }).catch(() => undefined);
    const result = await fetcher.discover(target, { timeoutMs: 15_000 });
    expect(result.tools).toHaveLength(EVERYTHING_TOOLS);
  });

  test.each(['streamable-http', 'sse'] as const)('an unreachable %s endpoint fails fast and clearly', async (transport) => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`;
    const startedAt = Date.now();
    const error = (await fetcher.discover(remoteTarget(transport, url), { timeoutMs: 5000 }).catch((e: unknown) => e)) as UpstreamError;
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(error).toBeInstanceOf(UpstreamError);
    expect([error.kind, error.message]).toEqual(['unreachable', `connection refused to ${url}`]);
    expect(error.message).toBe(`connection refused to ${url}`);
  });

  test('an era recorded for a different server generation is re-negotiated', async () => {
    const modern = await start([paths.modern, 'http', '--port', '{port}']);
    const { discoverResult } = await fetcher.discover(remoteTarget('streamable-http', `http://127.0.0.1:${modern.port}/mcp`), {
      timeoutMs: 10_000,
    });
    const legacy = await start([paths.everything, 'streamableHttp']);
    const stale = remoteTarget('streamable-http', `http://127.0.0.1:${legacy.port}/mcp`, { era: 'modern', discoverResult });

    const result = await fetcher.discover(stale, { timeoutMs: 15_000 });
    expect(result.era).toBe('legacy');
    expect(result.tools).toHaveLength(EVERYTHING_TOOLS);
  });

  test('a URL without an MCP endpoint', async () => {
    const server = await start([paths.modern, 'http', '--port', '{port}']);
    const url = `http://127.0.0.1:${server.port}/not-mcp`;
    const error = (await fetcher.discover(remoteTarget('streamable-http', url), { timeoutMs: 5000 }).catch((e: unknown) => e)) as UpstreamError;
    expect([error.kind, error.message]).toEqual(['http', `HTTP 404 from ${url}: no MCP endpoint at this URL`]);
  });

  test.each(['streamable-http', 'sse'] as const)('a %s endpoint that accepts but never answers hits the time budget', async (transport) => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/mcp`;
      const startedAt = Date.now();
      await expect(fetcher.discover(remoteTarget(transport, url), { timeoutMs: 1000 })).rejects.toThrow('timed out after 1000 ms connecting');
      expect(Date.now() - startedAt).toBeLessThan(2500);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  describe('configured headers', () => {
    let recorder: Server;
    let seen: { method: string; headers: IncomingHttpHeaders }[];
    let port: number;

    beforeEach(async () => {
      seen = [];
      recorder = createServer((req, res) => {
        seen.push({ method: req.method ?? '', headers: req.headers });
        req.resume();
        res.writeHead(401, { 'content-type': 'text/plain' }).end(`unauthorized: ${String(req.headers['x-api-key'])}`);
      });
      await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
      port = (recorder.address() as { port: number }).port;
    });

    afterEach(async () => {
      recorder.closeAllConnections();
      await new Promise((resolve) => recorder.close(resolve));
    });

    test.each([
      ['streamable-http', 'POST'],
      ['sse', 'GET'],
    ] as const)('are sent on %s requests and never echoed in errors', async (transport, method) => {
      const target = remoteTarget(transport, `http://127.0.0.1:${port}/mcp?token=query-secret-value`, {
        headers: { 'X-Api-Key': 'header-secret-value', Authorization: 'Bearer bearer-secret-value' },
      });
      const error = (await fetcher.discover(target, { timeoutMs: 5000 }).catch((e: unknown) => e)) as UpstreamError;

      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]).toMatchObject({
        method,
        headers: { 'x-api-key': 'header-secret-value', authorization: 'Bearer bearer-secret-value' },
      });
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error.message).toContain(`http://127.0.0.1:${port}/mcp`);
      expect(error.message).toMatch(/401/);
      for (const secret of ['header-secret-value', 'bearer-secret-value', 'query-secret-value']) {
        expect(error.message).not.toContain(secret);
      }
    });
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpInventoryFetcher } from '../../src/upstream/mcp-inventory-fetcher.js';
import { McpToolExecutor } from '../../src/upstream/mcp-tool-executor.js';
import { TransportFactory } from '../../src/upstream/transport-factory.js';
import { KeepAliveRpcPoster } from '../../src/upstream/http/keep-alive-rpc-poster.js';
import { guardedLookup, HostDeniedError } from '../../src/shared/guarded-lookup.js';
import { hostPolicy, hostPolicyLists } from '../../src/shared/host-policy.js';
import { OffThreadSchemaCompiler } from '../../src/shared/off-thread/off-thread-schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';
import { paths, processTag, remoteTarget, startHttpServer, type RunningServer } from './mcp-test-support.js';

/**
 * The source host policy holds where connections are made: a name is checked on the addresses it
 * resolves to when the socket connects (here `localhost`, with loopback denied), a literal address
 * before the request, for discovery, the SDK transports and the keep-alive call path alike.
 */
describe('connections under the source host policy', () => {
  let server: RunningServer;
  /** The same server on every address, IPv4 and IPv6: what `[::]` and `0.0.0.0` reach. */
  let dualStack: RunningServer;
  const tag = processTag();
  const factories: TransportFactory[] = [];

  const factoryWith = (deny: string) => {
    const { lists } = hostPolicyLists(undefined, deny);
    const factory = new TransportFactory({ http: { hostPolicy: hostPolicy(lists) } });
    factories.push(factory);
    return factory;
  };

  beforeAll(async () => {
    server = await startHttpServer([paths.httpEcho, '--port', '{port}', tag]);
    dualStack = await startHttpServer([paths.httpEcho, '--port', '{port}', '--host', '::', tag]);
  });

  afterAll(async () => {
    await Promise.all(factories.map((factory) => factory.closeAll()));
    await server.stop();
    await dualStack.stop();
  });

  it('refuses a name that resolves to a denied address, at connect time', async () => {
    const fetcher = new McpInventoryFetcher(factoryWith('default,127.0.0.0/8,::1'), new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS));
    await expect(fetcher.discover(remoteTarget('streamable-http', `http://localhost:${server.port}/mcp`), { timeoutMs: 5000 })).rejects.toThrow(
      /source host policy: localhost resolves to (127\.0\.0\.1|::1), which is denied/,
    );
  });

  it('refuses a literal denied address before any request', async () => {
    const fetcher = new McpInventoryFetcher(factoryWith('127.0.0.1'), new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS));
    await expect(fetcher.discover(remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`), { timeoutMs: 5000 })).rejects.toThrow(
      /source host policy: 127\.0\.0\.1 is denied/,
    );
  });

  it('refuses the unspecified addresses and IPv4-mapped loopback where loopback is denied, though they reach it', async () => {
    const fetcherWith = (deny: string) => new McpInventoryFetcher(factoryWith(deny), new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS));
    for (const host of ['[::]', '0.0.0.0', '[::ffff:0.0.0.0]', '[::ffff:127.0.0.1]']) {
      const target = remoteTarget('streamable-http', `http://${host}:${dualStack.port}/mcp`);
      // Nothing denied: the address does reach the server on this machine.
      expect((await fetcherWith('none').discover(target, { timeoutMs: 5000 })).tools.map((tool) => tool.name)).toEqual(['echo']);
      await expect(fetcherWith('127.0.0.0/8,::1').discover(target, { timeoutMs: 5000 })).rejects.toThrow(/source host policy: \S+ is denied/);
      const poster = new KeepAliveRpcPoster(new URL(target.url!), {}, 1 << 20, hostPolicy(hostPolicyLists(undefined, '127.0.0.1,::1').lists));
      try {
        await expect(poster.call(1, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { headers: {}, signal: new AbortController().signal })).rejects.toBeInstanceOf(HostDeniedError);
      } finally {
        poster.close();
      }
    }
  });

  it('refuses, at connect time, a name whose DNS answer is an unspecified address', async () => {
    const lookup = guardedLookup(hostPolicy(hostPolicyLists(undefined, '127.0.0.0/8,::1').lists));
    const resolve = (name: string) =>
      new Promise((done, fail) => lookup(name, { all: true }, (error, addresses) => (error ? fail(error) : done(addresses))));
    // "0" is a name to the socket; the system resolver answers 0.0.0.0 for it.
    for (const name of ['0', '0.0.0.0', '::']) await expect(resolve(name)).rejects.toThrow(/source host policy: (\S+ resolves to )?(0\.0\.0\.0|::)(, which)? is denied/);
    await expect(resolve('localhost')).rejects.toBeInstanceOf(HostDeniedError);
    expect(await new Promise((done) => guardedLookup(hostPolicy(hostPolicyLists(undefined, 'none').lists))('0', { all: true }, (_error, addresses) => done(addresses)))).toEqual([{ address: '0.0.0.0', family: 4 }]);
  });

  it('refuses a literal denied address on the keep-alive call path too, sending nothing', async () => {
    let requests = 0;
    const counted = await startCountingServer(() => (requests += 1));
    const policy = hostPolicy(hostPolicyLists(undefined, '127.0.0.1').lists);
    const denied = new KeepAliveRpcPoster(new URL(`http://127.0.0.1:${counted.port}/mcp`), {}, 1 << 20, policy);
    const allowed = new KeepAliveRpcPoster(new URL(`http://127.0.0.1:${counted.port}/mcp`), {}, 1 << 20, hostPolicy(hostPolicyLists(undefined, 'default').lists));
    try {
      const call = () => denied.call(1, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { headers: {}, signal: new AbortController().signal });
      await expect(call()).rejects.toBeInstanceOf(HostDeniedError);
      await expect(call()).rejects.toThrow(/127\.0\.0\.1 is denied/);
      expect(requests).toBe(0);
      await expect(allowed.call(1, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { headers: {}, signal: new AbortController().signal })).resolves.toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(requests).toBe(1);
    } finally {
      denied.close();
      allowed.close();
      await counted.close();
    }
  });

  it('connects and calls as usual where the policy allows (the default: loopback allowed)', async () => {
    const factory = factoryWith('default');
    const fetcher = new McpInventoryFetcher(factory, new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS));
    const target = remoteTarget('streamable-http', `http://localhost:${server.port}/mcp`);
    const discovered = await fetcher.discover(target, { timeoutMs: 5000 });
    expect(discovered.tools.map((tool) => tool.name)).toEqual(['echo']);
    const executor = new McpToolExecutor(factory);
    const outcome = await executor.invoke({ target, toolName: 'echo', arguments: { message: 'hi' }, timeoutMs: 5000, maxResultBytes: 1 << 20 });
    expect(outcome).toMatchObject({ kind: 'result', content: [{ type: 'text', text: 'hi' }] });
  });
});

/** A JSON-RPC endpoint on loopback that answers every POST with an empty result and counts them. */
async function startCountingServer(onRequest: () => void): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    onRequest();
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

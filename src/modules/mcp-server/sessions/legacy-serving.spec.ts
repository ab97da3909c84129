import { Server } from '@modelcontextprotocol/server';
import { relayedInputCapabilities } from '../../../upstream/relayed-input.js';
import { LegacyListStreams } from './legacy-list-streams.js';
import { declaresInputCapabilities } from './legacy-sessions.js';
import { McpGatewayServer } from '../mcp-gateway-server.js';
import type { GroupViews } from '../../catalog/application/group-views.js';
import type { CatalogSnapshots } from '../../catalog/application/catalog-snapshots.js';
import type { McpToolServers } from '../mcp-tool-servers.js';
import type { McpExchange } from '../mcp-exchange.js';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SecretCipher } from '../../../shared/crypto/secret-cipher.js';

/** A full garbage collection, as the engine would run one at any moment. */
async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

const exchange: McpExchange = { principal: { id: 'admin', name: 'admin', roles: ['admin'] }, surface: { kind: 'all' } } as McpExchange;

describe('2025-era serving', () => {
  it('opens a session only for an initialize that declares an input capability', () => {
    const initialize = (capabilities: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities } });
    expect(declaresInputCapabilities(initialize({ sampling: {} }))).toBe(true);
    expect(declaresInputCapabilities(initialize({ roots: { listChanged: true } }))).toBe(true);
    expect(declaresInputCapabilities(initialize({}))).toBe(false);
    expect(declaresInputCapabilities({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { capabilities: { sampling: {} } } })).toBe(false);
    expect(declaresInputCapabilities([initialize({ sampling: {} })])).toBe(false);
  });

  it('refuses a standalone stream past the limit with 503', async () => {
    const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: { listChanged: true } } });
    const response = await new LegacyListStreams(0).open(server, new Request('http://localhost/mcp', { headers: { accept: 'text/event-stream' } }), { token: '', clientId: 'admin', scopes: [] });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });

  it("tells a session's streams, and only them, what is meant for the session, for as long as they are open", async () => {
    const streams = new LegacyListStreams();
    const open = async (sessionId: string | undefined) => {
      const abort = new AbortController();
      const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: { listChanged: true } } });
      const request = new Request('http://localhost/mcp', { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' }, signal: abort.signal });
      const response = await streams.open(server, request, { token: '', clientId: 'admin', scopes: [] }, 'all', sessionId);
      return { reader: response.body!.getReader(), abort };
    };
    const mine = await open('session-1');
    const other = await open(undefined);
    expect([streams.hasSession('session-1'), streams.hasSession('session-2')]).toEqual([true, false]);
    await streams.notifySession('session-1', { method: 'notifications/tasks/status', params: { taskId: 't-1', status: 'completed' } });
    const read = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
      let text = '';
      while (!text.includes('\n\n')) {
        const chunk = await Promise.race([reader.read(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 300))]);
        if (!chunk || chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      return text;
    };
    expect(await read(mine.reader)).toContain('"taskId":"t-1"');
    expect(await read(other.reader)).not.toContain('t-1');
    // Nothing of the caller's holds the Request: a stream must hear its abort all the same.
    await collectGarbage();
    mine.abort.abort();
    other.abort.abort();
    expect(streams.hasSession('session-1')).toBe(false);
    await streams.closeAll();
  });

  it('answers 503 with Retry-After once shutdown has begun', async () => {
    const catalog = { onToolsChanged: () => () => undefined } as unknown as CatalogSnapshots;
    const groups = { onGroupsChanged: () => () => undefined } as unknown as GroupViews;
    const gateway = new McpGatewayServer({} as McpToolServers, catalog, new SecretCipher(randomBytes(32)), groups);
    await gateway.beforeApplicationShutdown();
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json' } });
    const response = await gateway.handle(request, { jsonrpc: '2.0', id: 9, method: 'ping' }, exchange);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32000 } });
  });
});

describe('relayedInputCapabilities', () => {
  it('keeps the input kinds Toolplane relays and nothing else', () => {
    expect(relayedInputCapabilities({ elicitation: { form: {} }, sampling: {}, roots: { listChanged: true }, extensions: { x: {} }, experimental: {} })).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: { listChanged: true },
    });
    expect(relayedInputCapabilities({ sampling: true, elicitation: null })).toEqual({});
  });
});

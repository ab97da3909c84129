import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness, type Peer } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/** Asks for the execution in each result's `_meta` (results carry only what the upstream sent otherwise). */
const WITH_EXECUTION = { 'dev.toolplane/execution': true };

const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/**
 * Every 2025-era client gets a session id at `initialize` that any Toolplane process can read: the
 * client's own words (clientInfo, protocol version, capabilities) sealed under the shared key. A
 * client served by two processes in turn is named in the record by both; a tampered or forged id
 * is no session.
 */
describe('sealed 2025-era session ids', () => {
  let h: Harness;
  let peer: Peer;
  let turn = 0;
  const clients: Client[] = [];

  /** Sends each request to A, then B, then A…, whatever the client addressed. */
  const alternate = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const target = new URL(url);
    target.host = new URL(turn++ % 2 === 0 ? h.url : peer.url).host;
    return fetch(target, init);
  };

  const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(base + path, { method: 'POST', headers: { ...LEGACY_HEADERS, authorization: `Bearer ${h.adminKey}`, ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    h = await startHarness();
    peer = await h.startPeer();
    const registered = await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG], refreshIntervalSeconds: 0 });
    expect(registered.body.health).toBe('healthy');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await h?.close();
  });

  it('names the client in the record of calls served by either process', async () => {
    const client = new Client({ name: 'sealed-agent', version: '4.5.6' });
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { fetch: alternate, requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } });
    await client.connect(transport);
    clients.push(client);
    expect(transport.sessionId).toMatch(/^tps1\./);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__echo', arguments: { message: `call ${i}` } });
      ids.push((result._meta as Record<string, { id: string }>)['dev.toolplane/execution'].id);
    }
    const rows = await h.sql<{ client: string; version: string; protocol: string }>(
      "SELECT caller->>'clientName' AS client, caller->>'clientVersion' AS version, caller->>'protocolVersion' AS protocol FROM executions WHERE id = ANY($1::uuid[])",
      [ids],
    );
    expect(rows).toEqual(Array.from({ length: 4 }, () => ({ client: 'sealed-agent', version: '4.5.6', protocol: '2025-11-25' })));
  });

  it('refuses a tampered or forged id, on either process, as an unknown session', async () => {
    const init = await post(h.url, '/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toMatch(/^tps1\./);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await post(peer.url, '/mcp', list, { 'mcp-session-id': sessionId })).status).toBe(200);
    // One character of the sealed token changed (to another: a token whose character already is 'A' gets a 'B').
    const tampered = sessionId.slice(0, -2) + (sessionId.at(-2) === 'A' ? 'B' : 'A') + sessionId.slice(-1);
    expect(tampered).not.toBe(sessionId);
    for (const [base, path, id] of [[h.url, '/mcp', tampered], [peer.url, '/mcp', tampered], [h.url, '/mcp', 'tps1.not.a.real.token']] as const) {
      const response = await post(base, path, list, { 'mcp-session-id': id });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32001);
    }
  });
});

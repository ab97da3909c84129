import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * Every notification an upstream sends before its result reaches the caller before the result, in
 * order: server-everything's long-running operation (stdio) reports each step, the last one right
 * before it answers, through each MCP endpoint, for clients of both eras, many times over.
 */
const STEPS = 4;
const ROUNDS = 8;

describe('progress before the result', () => {
  let h: Harness;
  const clients: Client[] = [];

  const connect = async (path: string, era: 'legacy' | 'modern') => {
    // Without a negotiation mode the client speaks the 2025 era (initialize); 'auto' negotiates 2026-07-28 here.
    const client = new Client({ name: 'progress-order', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(h.url + path), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    h = await startHarness();
    const registered = await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG], refreshIntervalSeconds: 0 });
    expect(registered.body.health).toBe('healthy');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await h?.close();
  });

  const cases = [
    ['/mcp', 'legacy', 'ev__trigger-long-running-operation'],
    ['/mcp', 'modern', 'ev__trigger-long-running-operation'],
    ['/mcp/sources/ev', 'legacy', 'trigger-long-running-operation'],
    ['/mcp/gateway', 'legacy', 'call_tool'],
  ] as const;

  it.each(cases)('%s, %s era: every step, in order, before the result', async (path, era, tool) => {
    const client = await connect(path, era);
    const args = { duration: 0.2, steps: STEPS };
    for (let round = 0; round < ROUNDS; round++) {
      const seen: string[] = [];
      const result = await client.callTool(
        { name: tool, arguments: tool === 'call_tool' ? { name: 'ev__trigger-long-running-operation', arguments: args } : args },
        { onprogress: (update) => seen.push(`${update.progress}/${update.total}`) },
      );
      seen.push(result.isError ? 'error' : 'result');
      expect(seen).toEqual([...Array.from({ length: STEPS }, (_, i) => `${i + 1}/${STEPS}`), 'result']);
    }
  });
});

import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

const MODERN_FIXTURE = join(FIXTURES, 'modern-server.mjs');
/** The fixture's tools whose complete results leave out `resultType` (bare-results.mjs). */
const FIXTURE_ENV = { EXTRA_TOOLS: '1', BARE_RESULT_TOOLS: 'echo,where,confirm' };
const SOURCES = ['bare-stdio', 'bare-http'] as const;

/**
 * A 2026-07-28 upstream whose `tools/call` results leave out `resultType` (the revision requires it,
 * some servers omit it): each is read as a complete result on every way a call goes out — the
 * stdio and HTTP direct callers, the SDK client (a tool with a mirrored header parameter), the
 * continuation of an `input_required` call — with one warning per source.
 */
describe('2026-07-28 results without resultType', () => {
  let h: Harness;
  let upstream: RunningUpstream;
  const clients: Client[] = [];
  const invoke = (tool: string, body: Record<string, unknown>) => h.api.post(`/api/v1/tools/${tool}/invoke`, body);

  beforeAll(async () => {
    h = await startHarness();
    upstream = await startHttpUpstream((port) => [MODERN_FIXTURE, 'http', '--port', String(port), SUITE_TAG], '/mcp', FIXTURE_ENV);
    const registrations = [
      { name: 'bare-stdio', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [MODERN_FIXTURE, 'stdio', SUITE_TAG], env: FIXTURE_ENV },
      { name: 'bare-http', transport: 'streamable-http', url: upstream.url },
    ];
    for (const registration of registrations) {
      const created = await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...registration });
      expect(created.body).toMatchObject({ name: registration.name, health: 'healthy', protocol: { era: 'modern' } });
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await upstream?.stop();
  });

  describe.each(SOURCES)('%s', (source) => {
    it('answers a call with the result the upstream sent', async () => {
      const answer = await invoke(`${source}__echo`, { arguments: { message: 'no type' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'succeeded', isError: false, result: { content: [{ type: 'text', text: 'no type' }] } });
    });

    it('answers a tool with a mirrored header parameter (over HTTP the SDK client calls it)', async () => {
      const answer = await invoke(`${source}__where`, { arguments: { region: 'eu-west' } });
      expect(answer.body).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: expect.stringContaining('"region":"eu-west"') }] } });
    });

    it('finishes an input_required call whose last answer has no type', async () => {
      const asked = await invoke(`${source}__confirm`, { arguments: { action: 'ship' } });
      expect(asked.body.status).toBe('input_required');
      const answered = await invoke(`${source}__confirm`, {
        arguments: { action: 'ship' },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: asked.body.result.requestState,
      });
      expect(answered.body).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'ship: done' }] } });
    });

    it('serves the call to a 2025-era MCP client', async () => {
      const client = new Client({ name: 'bare-results-legacy', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/sources/${source}`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
      clients.push(client);
      expect(client.getProtocolEra()).toBe('legacy');
      const result = await client.callTool({ name: 'echo', arguments: { message: 'legacy caller' } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'legacy caller' }] });
      expect(result.isError ?? false).toBe(false);
    });
  });

  it('warns once per source', async () => {
    for (const source of SOURCES) {
      const warning = `source ${source} sent a result without resultType`;
      const deadline = Date.now() + 5000;
      while (!h.process.logs().includes(warning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(h.process.logs().split(warning).length - 1).toBe(1);
    }
  });
});

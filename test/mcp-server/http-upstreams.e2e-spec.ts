import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, startEverythingHttp, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';

type Mode = 'modern' | 'legacy';

/**
 * `/mcp` in front of Streamable HTTP upstreams: the 2026-07-28 fixture and server-everything (a
 * 2025-era server), seen by an SDK client of each era — what the stdio upstreams of
 * mcp-endpoint.e2e-spec show, over the other transport.
 */
describe('/mcp with Streamable HTTP upstreams behind it', () => {
  let h: Harness;
  let scratch: string;
  let cancelLog: string;
  const upstreams: RunningUpstream[] = [];
  const clients: Client[] = [];
  const textOf = (result: any) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  const cancellations = () => {
    try {
      return readFileSync(cancelLog, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'toolplane-http-upstreams-'));
    cancelLog = join(scratch, 'cancel.log');
    h = await startHarness();
    const modern = await startHttpUpstream((port) => [join(FIXTURES, 'modern-server.mjs'), 'http', '--port', String(port)], '/mcp', { EXTRA_TOOLS: '1', CANCEL_LOG: cancelLog });
    const everything = await startEverythingHttp('streamableHttp');
    upstreams.push(modern, everything);
    for (const [name, url] of [['modh', modern.url], ['evh', everything.url]] as const) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'streamable-http', url, refreshIntervalSeconds: 0 });
      expect(created.body).toMatchObject({ name, health: 'healthy' });
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await Promise.all(upstreams.map((upstream) => upstream.stop()));
    rmSync(scratch, { recursive: true, force: true });
  });

  describe.each<Mode>(['modern', 'legacy'])('a %s client', (mode) => {
    let client: Client;

    beforeAll(async () => {
      client = new Client(
        { name: `http-upstreams-${mode}`, version: '1.0.0' },
        {
          ...(mode === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
          capabilities: { elicitation: { form: {} }, sampling: {} },
        },
      );
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
      client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', model: 'e2e', content: { type: 'text', text: 'sampled over HTTP' } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
      clients.push(client);
    });

    it('lists both upstreams’ tools and calls them: structured content, images', async () => {
      const names = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['modh__add', 'modh__slow', 'evh__echo', 'evh__get-tiny-image']));
      const sum: any = await client.callTool({ name: 'modh__add', arguments: { a: 20, b: 22 } });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      const image: any = await client.callTool({ name: 'evh__get-tiny-image', arguments: {} });
      expect(image.content).toContainEqual(expect.objectContaining({ type: 'image', mimeType: 'image/png' }));
    });

    it('relays every progress update of the upstream, in order, and its log messages', async () => {
      const progress: { progress: number; total?: number }[] = [];
      const done: any = await client.callTool({ name: 'modh__slow', arguments: { ms: 300, steps: 3 } }, { onprogress: (p) => progress.push(p) });
      expect(textOf(done)).toBe('waited 300 ms');
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);

      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params));
      if (mode === 'legacy') await client.setLoggingLevel('warning');
      const meta = mode === 'modern' ? { _meta: { 'io.modelcontextprotocol/logLevel': 'warning' } } : {};
      await client.callTool({ name: 'modh__chatty', arguments: { text: 'over http' }, ...meta });
      expect(logs).toEqual([{ level: 'warning', logger: 'chatty', data: 'warning: over http' }]);
    });

    it('cancels the upstream call when the caller gives up (the request stream closes upstream too)', async () => {
      const before = cancellations().length;
      const abort = new AbortController();
      const call = client.callTool({ name: 'modh__slow', arguments: { ms: 20_000, steps: 40 } }, { signal: abort.signal, onprogress: () => abort.abort() });
      await expect(call).rejects.toThrow();
      const deadline = Date.now() + 5000;
      while (cancellations().length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(cancellations().slice(before)).toEqual([expect.stringMatching(/^cancelled \S+ by disconnect$/)]);
    });

    it('passes an upstream’s request for input through to the client and back', async () => {
      // 2026-07-28 upstream: input_required, fulfilled by the modern client itself or, for a 2025-era session, put to it by Toolplane.
      expect(textOf(await client.callTool({ name: 'modh__confirm', arguments: { action: 'ship' } }))).toBe('ship: done');
      // 2025-era upstream: its sampling request comes on the call's own HTTP stream. A 2025-era
      // session's client answers it; a 2026-07-28 client cannot be asked, and the upstream is told so.
      const sampled: any = await client.callTool({ name: 'evh__trigger-sampling-request', arguments: { prompt: 'p', maxTokens: 5 } });
      if (mode === 'legacy') expect(textOf(sampled)).toContain('sampled over HTTP');
      else {
        expect(sampled.isError).toBe(true);
        expect(textOf(sampled)).toContain('Cannot relay sampling/createMessage through Toolplane');
      }
    });
  });
});

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expectNoProcesses } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'differential', version: '3.1.4' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
/** What every SDK client sends: the stateless fast path takes it. */
const FAST_ACCEPT = 'application/json, text/event-stream';
/** The same preferences with explicit weights: the fast path leaves it to the SDK's server. */
const SDK_ACCEPT = 'application/json;q=1, text/event-stream;q=1';

type Era = typeof MODERN | typeof LEGACY;

interface Answer {
  status: number;
  contentType: string;
  /** Every JSON-RPC message of the answer, notifications first, with execution ids replaced. */
  messages: any[];
}

/**
 * The stateless `tools/call` fast path against the SDK's server on the same requests: every
 * answer (status, notifications, result or error) must be the same, in both eras.
 */
describe('stateless tools/call: the fast path answers exactly as the SDK server does', () => {
  let h: Harness;
  const tag = `stateless-calls-${randomUUID()}`;

  beforeAll(async () => {
    h = await startHarness();
    const sources = [
      { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', tag] },
      { name: 'mod', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [join(FIXTURES, 'modern-server.mjs'), 'stdio', tag], env: { EXTRA_TOOLS: '1' } },
      { name: 'conf', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [join(FIXTURES, 'conformance-server.mjs'), tag] },
    ];
    for (const source of sources) {
      const created = await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source });
      expect(created.body).toMatchObject({ name: source.name, health: 'healthy' });
    }
  });

  afterAll(async () => {
    await h?.close();
    await expectNoProcesses([tag]);
  });

  async function call(path: string, era: Era, accept: string, name: string, args: unknown, meta: Record<string, unknown> = {}): Promise<Answer> {
    const modern = era === MODERN;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept,
      authorization: `Bearer ${h.adminKey}`,
      'mcp-protocol-version': era,
      ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {}),
    };
    const _meta = { ...(modern ? ENVELOPE : {}), ...meta };
    const body = { jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name, arguments: args, ...(Object.keys(_meta).length > 0 ? { _meta } : {}) } };
    const response = await fetch(h.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    const raw = contentType.startsWith('text/event-stream')
      ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)))
      : [JSON.parse(text)];
    return { status: response.status, contentType, messages: JSON.parse(JSON.stringify(raw).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')) };
  }

  async function both(path: string, era: Era, name: string, args: unknown, meta: Record<string, unknown> = {}) {
    const fast = await call(path, era, FAST_ACCEPT, name, args, meta);
    const sdk = await call(path, era, SDK_ACCEPT, name, args, meta);
    return { fast, sdk };
  }

  describe.each<Era>([MODERN, LEGACY])('%s', (era) => {
    it.each<[string, string, string, unknown]>([
      ['a text result', '/mcp', 'ev__echo', { message: 'same' }],
      ['structured content', '/mcp', 'mod__add', { a: 2, b: 3 }],
      ['an image', '/mcp', 'ev__get-tiny-image', {}],
      ['arguments that break the schema', '/mcp', 'ev__echo', { message: 7 }],
      ['an unknown tool', '/mcp', 'ev__nope', {}],
      ['a tool of one source under its own name', '/mcp/sources/mod', 'echo', { message: 'source' }],
      ['an upstream asking for input', '/mcp', 'mod__confirm', { action: 'deploy' }],
    ])('%s', async (_case, path, name, args) => {
      const { fast, sdk } = await both(path, era, name, args);
      expect(fast.status).toBe(sdk.status);
      expect(fast.messages).toEqual(sdk.messages);
      // Without notifications the fast path answers plain JSON (the SDK's 2025-era serving streams every call).
      expect(fast.contentType).toBe('application/json');
    });

    it('input_required rounds that carry only state: handed back (2026-07-28) or re-run until done (2025 era)', async () => {
      const { fast, sdk } = await both('/mcp', era, 'mod__staged', {});
      expect(fast.messages).toEqual(sdk.messages);
      expect(fast.messages.at(-1).result).toMatchObject(era === MODERN ? { resultType: 'input_required', requestState: 'stage-1' } : { content: [{ type: 'text', text: 'staged: done' }] });
    });

    it("the upstream's log messages ahead of the result", async () => {
      const meta = era === MODERN ? { 'io.modelcontextprotocol/logLevel': 'info' } : {};
      const { fast, sdk } = await both('/mcp', era, 'mod__chatty', { text: 'both' }, meta);
      expect(fast.contentType).toBe('text/event-stream');
      expect(fast.messages).toEqual(sdk.messages);
      const levels = fast.messages.filter((m) => m.method === 'notifications/message').map((m) => m.params.level);
      expect(levels).toEqual(era === MODERN ? ['info', 'warning'] : ['debug', 'info', 'warning']);
    });

    it('progress on the caller’s token, then the same result', async () => {
      const { fast, sdk } = await both('/mcp', era, 'ev__trigger-long-running-operation', { duration: 0.3, steps: 3 }, { progressToken: 'tok' });
      for (const answer of [fast, sdk]) {
        expect(answer.contentType).toBe('text/event-stream');
        const progress = answer.messages.slice(0, -1);
        expect(progress.length).toBeGreaterThanOrEqual(1);
        progress.forEach((m, index) => expect(m).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'tok', progress: index + 1, total: 3 } }));
      }
      expect(fast.messages.at(-1)).toEqual(sdk.messages.at(-1));
    });
  });

  it.each<Era>([MODERN, LEGACY])('%s: an upstream refusing to ask for input the caller did not declare it can give (-32021)', async (era) => {
    const meta = era === MODERN ? { 'io.modelcontextprotocol/clientCapabilities': {} } : {};
    const { fast, sdk } = await both('/mcp/sources/conf', era, 'test_input_required_result_elicitation', {}, meta);
    expect(fast.status).toBe(sdk.status);
    expect(fast.status).toBe(era === MODERN ? 400 : 200);
    expect(fast.messages).toEqual(sdk.messages);
    expect(fast.messages[0].error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: expect.any(Object) } } });
  });

  it('records the caller alike on both paths', async () => {
    for (const era of [MODERN, LEGACY] as Era[]) {
      await both('/mcp', era, 'ev__echo', { message: `caller ${era}` });
      const rows = await h.sql("SELECT caller FROM executions WHERE arguments->>'message' = $1 ORDER BY started_at", [`caller ${era}`]);
      expect(rows).toHaveLength(2);
      expect(rows[0].caller).toEqual(rows[1].caller);
      expect(rows[0].caller).toMatchObject(era === MODERN ? { clientName: 'differential', clientVersion: '3.1.4', protocolVersion: MODERN } : { protocolVersion: LEGACY });
    }
  });
});

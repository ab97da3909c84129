import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, startEverythingHttp, type RunningUpstream } from '../helpers/upstreams.js';

interface Sse {
  status: number;
  contentType: string | null;
  events: { event: string; data: any; at: number }[];
  text: string;
}

/**
 * A REST invoke asking for `text/event-stream` hears the upstream's progress while the call
 * runs (stdio and streamable HTTP alike), then the result with the status code and body the plain
 * answer would have had; a call without progress, or refused before it ran, is answered as usual.
 */
describe('REST invoke with progress events', () => {
  let h: Harness;
  let remote: RunningUpstream;

  beforeAll(async () => {
    h = await startHarness();
    remote = await startEverythingHttp('streamableHttp');
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
    expect((await h.api.post('/api/v1/sources', { name: 'remote', transport: 'streamable-http', url: remote.url })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await remote?.stop();
  });

  async function invoke(tool: string, body: unknown, accept = 'application/json, text/event-stream'): Promise<Sse> {
    const started = Date.now();
    const response = await fetch(`${h.url}/api/v1/tools/${tool}/invoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', accept },
      body: JSON.stringify(body),
    });
    const events: Sse['events'] = [];
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) !== -1 && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data), at: Date.now() - started });
      }
    }
    return { status: response.status, contentType: response.headers.get('content-type'), events, text };
  }

  it.each(['ev', 'remote'])('streams each progress notification of %s while the call runs, then the result', async (source) => {
    const answer = await invoke(`${source}__trigger-long-running-operation`, { arguments: { duration: 1.5, steps: 3 } });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    expect(answer.events.map((e) => e.event)).toEqual(['progress', 'progress', 'progress', 'result']);
    expect(answer.events.slice(0, 3).map((e) => e.data)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    // Each arrived as it happened, not all at the end.
    expect(answer.events[0]!.at).toBeLessThan(answer.events[3]!.at - 600);
    const result = answer.events[3]!.data;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'succeeded', qualifiedName: `${source}__trigger-long-running-operation`, result: { content: [{ type: 'text', text: expect.stringContaining('Long running operation completed') }] } });
    const recorded = await h.api.get(`/api/v1/executions/${result.body.id}`);
    expect(recorded.body).toMatchObject({ id: result.body.id, status: 'succeeded', channel: 'rest' });
  });

  it('answers as usual when no progress came, or when the call was refused, even to a caller that accepts events', async () => {
    const plain = await invoke('ev__echo', { arguments: { message: 'hi' } });
    expect(plain.status).toBe(200);
    expect(plain.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(plain.text)).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'Echo: hi' }] } });

    const unknown = await invoke('ev__no-such-tool', { arguments: {} });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).error.code).toBe('TOOL_NOT_FOUND');
    const invalid = await invoke('ev__trigger-long-running-operation', { arguments: { duration: 'long' } });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text).error.code).toBe('INVALID_ARGUMENTS');
  });

  it('sends no events to a caller that does not accept them', async () => {
    const answer = await invoke('ev__trigger-long-running-operation', { arguments: { duration: 0.3, steps: 2 } }, 'application/json');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'succeeded' });
    const refused = await invoke('ev__trigger-long-running-operation', { arguments: { duration: 0.3, steps: 2 } }, 'text/event-stream;q=0, application/json');
    expect(refused.contentType).toMatch(/^application\/json/);
  });

  it('cancels the call upstream when the caller leaves the stream', async () => {
    const controller = new AbortController();
    const response = await fetch(`${h.url}/api/v1/tools/ev__trigger-long-running-operation/invoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ arguments: { duration: 20, steps: 20 } }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: progress');
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    // The execution ends cancelled long before its 20 s.
    let status = 'started';
    for (let i = 0; i < 50 && status === 'started'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const rows = await h.sql<{ status: string }>("SELECT status FROM executions WHERE qualified_name = 'ev__trigger-long-running-operation' ORDER BY started_at DESC LIMIT 1");
      status = rows[0]?.status ?? 'started';
    }
    expect(status).toBe('cancelled');
  }, 30_000);
});

import { reworkLargeMessages } from '../../src/upstream/http/large-message-rework.js';
import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';
import { MAX_MESSAGE_VALUES, OFF_THREAD_MIN_BYTES } from '../../src/shared/off-thread/large-message.js';
import { offThread } from '../../src/shared/off-thread/off-thread-worker.js';

/**
 * Response bodies rewritten for the SDK's reader (remote upstreams): large messages parsed and
 * trimmed on the worker thread. Runs against the built worker (npm test builds first): in this
 * suite `offThread` is pointed at it.
 */
const builtWorker = new URL('../../dist/src/shared/off-thread/worker.js', import.meta.url);
Object.defineProperty(offThread, 'script', { value: builtWorker });

const hugeSchema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(20) }])) };
const listing = (id: number) => ({ jsonrpc: '2.0', id, result: { tools: [{ name: 'huge', inputSchema: hugeSchema }, { name: 'small', inputSchema: { type: 'object' } }] } });

function streamOf(text: string, pieceBytes: number): ReadableStream<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + pieceBytes)));
      offset += pieceBytes;
    },
  });
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe('reworkLargeMessages', () => {
  afterAll(() => offThread.close());

  it('trims a large JSON body on the worker thread', async () => {
    const text = JSON.stringify(listing(3));
    expect(text.length).toBeGreaterThan(OFF_THREAD_MIN_BYTES);
    const out = JSON.parse(await read(reworkLargeMessages(streamOf(text, 65_536), false, DEFAULT_SCHEMA_LIMITS)));
    expect(out.id).toBe(3);
    expect(out.result.tools[0].inputSchema).toEqual({ type: 'object', 'x-toolplane-trimmed': expect.stringMatching(/^its inputSchema/) });
    expect(out.result.tools[1]).toEqual({ name: 'small', inputSchema: { type: 'object' } });
  });

  it('passes a small JSON body as it came, and one that is not JSON too', async () => {
    const small = '{"jsonrpc":"2.0","id":1,"result":{}}';
    expect(await read(reworkLargeMessages(streamOf(small, 5), false))).toBe(small);
    const broken = `{"a":"${'x'.repeat(OFF_THREAD_MIN_BYTES)}`;
    expect(await read(reworkLargeMessages(streamOf(broken, 70_000), false))).toBe(broken);
  });

  it('rewrites only the large events of a stream, keeps every event in order with its fields, whatever the line ends', async () => {
    const progress = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: n } });
    const text = [
      `id: 1\r\nevent: message\r\ndata: ${progress(1)}\r\n\r\n`,
      `: a comment\rdata: ${progress(2)}\r\r`,
      `id: 3\nevent: message\ndata: ${JSON.stringify(listing(9))}\n\n`,
      `data: ${progress(3)}\n\n`,
      // An unfinished event at the end is dropped, as an SSE reader would.
      `data: ${progress(4)}`,
    ].join('');
    const out = await read(reworkLargeMessages(streamOf(text, 7_777), true, DEFAULT_SCHEMA_LIMITS));
    const events = out.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(4);
    expect(events[0]).toBe(`id: 1\nevent: message\ndata: ${progress(1)}`);
    expect(events[1]).toBe(`: a comment\ndata: ${progress(2)}`);
    expect(events[3]).toBe(`data: ${progress(3)}`);
    const [id, type, data] = events[2].split('\n');
    expect([id, type]).toEqual(['id: 3', 'event: message']);
    const reworked = JSON.parse(data.slice('data: '.length));
    expect(reworked.result.tools[0].inputSchema['x-toolplane-trimmed']).toMatch(/^its inputSchema/);
    expect(data.length).toBeLessThan(1000);
  });

  it(`turns a response holding more than ${MAX_MESSAGE_VALUES} values into an error for its request`, async () => {
    const rows = Array.from({ length: MAX_MESSAGE_VALUES }, (_, i) => i);
    const text = JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: { structuredContent: { rows }, content: [] } });
    const out = JSON.parse(await read(reworkLargeMessages(streamOf(text, 100_000), false)));
    expect(out).toEqual({ jsonrpc: '2.0', id: 'r1', error: { code: -32603, message: "the upstream's message holds more than 100,000 values (Toolplane's limit)" } });
  });
});

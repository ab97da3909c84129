import type { SchemaLimits } from '../../shared/json-schema/schema-limits.js';
import { OFF_THREAD_MIN_BYTES, reworkLargeMessage } from '../../shared/off-thread/large-message.js';
import { dataValue, SseLineSplitter } from './sse-data-parser.js';

/**
 * A response body for the SDK's reader in which every large message (a JSON body, or an SSE
 * event's data, of at least OFF_THREAD_MIN_BYTES) was parsed on the worker thread, trimmed there
 * (oversized tool schemas; more values than Toolplane accepts becomes an error response) and
 * written out again, so the SDK parses only what is left. Small messages pass as they came; SSE
 * events keep their fields, in order, with LF line ends.
 */
/** Whether a response body is an event stream (its messages are SSE events, not one JSON body). */
export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
}

export function reworkLargeMessages(source: ReadableStream<Uint8Array>, sse: boolean, schemaLimits?: SchemaLimits): ReadableStream<Uint8Array> {
  return sse ? reworkEvents(source, schemaLimits) : reworkJson(source, schemaLimits);
}

function reworkJson(source: ReadableStream<Uint8Array>, schemaLimits?: SchemaLimits): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          size += value.length;
        }
        const body = Buffer.concat(chunks, size);
        if (size < OFF_THREAD_MIN_BYTES) controller.enqueue(body);
        else controller.enqueue(await reworkOrKeep(body, schemaLimits));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function reworkEvents(source: ReadableStream<Uint8Array>, schemaLimits?: SchemaLimits): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const splitter = new EventSplitter();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Read until an event is complete: a pull that enqueues nothing is not called again.
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          controller.error(error);
          return;
        }
        if (result.done) {
          controller.close();
          return;
        }
        const events = splitter.push(result.value);
        for (const event of events) controller.enqueue(await encodeEvent(event, schemaLimits));
        if (events.length > 0) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** An event as its lines (without line ends), in the order received. */
type SseEvent = Buffer[];

async function encodeEvent(lines: SseEvent, schemaLimits?: SchemaLimits): Promise<Buffer> {
  const size = lines.reduce((sum, line) => sum + line.length, 0);
  if (size >= OFF_THREAD_MIN_BYTES) {
    const kept: Buffer[] = [];
    const data: Uint8Array[] = [];
    for (const line of lines) {
      const value = dataValue(line);
      if (value === undefined) kept.push(line, NEWLINE);
      else data.push(...(data.length > 0 ? [NEWLINE] : []), value);
    }
    if (data.length > 0) {
      const reworked = await reworkOrKeep(Buffer.concat(data), schemaLimits);
      return Buffer.concat([...kept, DATA_PREFIX, reworked, NEWLINE, NEWLINE]);
    }
  }
  const parts: Buffer[] = [];
  for (const line of lines) parts.push(line, NEWLINE);
  parts.push(NEWLINE);
  return Buffer.concat(parts);
}

const DATA_PREFIX = Buffer.from('data: ');
const NEWLINE = Buffer.from('\n');

/** The message reworked on the worker thread, or as it came when it is not JSON (the SDK reports that). */
async function reworkOrKeep(bytes: Buffer, schemaLimits?: SchemaLimits): Promise<Buffer> {
  const copy = Buffer.from(bytes);
  try {
    return Buffer.from(await reworkLargeMessage(copy, schemaLimits), 'utf8');
  } catch {
    return bytes;
  }
}

/** Splits an event stream into events (lines up to a blank line). */
class EventSplitter {
  private readonly lines = new SseLineSplitter();
  private event: Buffer[] = [];

  push(chunk: Uint8Array): SseEvent[] {
    const events: SseEvent[] = [];
    this.lines.push(chunk, (line) => {
      if (line.length > 0) {
        this.event.push(Buffer.from(line.buffer, line.byteOffset, line.byteLength));
      } else if (this.event.length > 0) {
        events.push(this.event);
        this.event = [];
      }
      return true;
    });
    return events;
  }
}

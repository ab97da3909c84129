import type { SchemaLimits } from '../../shared/json-schema/schema-limits.js';
import { OFF_THREAD_MIN_BYTES, reworkLargeMessage } from '../../shared/off-thread/large-message.js';

const LF = 0x0a;
const CR = 0x0d;
const DATA_FIELD = /^data(?::\s?|$)/;

/**
 * A response body for the SDK's reader in which every large message (a JSON body, or an SSE
 * event's data, of at least OFF_THREAD_MIN_BYTES) was parsed on the worker thread, trimmed there
 * (oversized tool schemas; more values than Toolplane accepts becomes an error response) and
 * written out again, so the SDK parses only what is left. Small messages pass as they came; SSE
 * events keep their fields, in order, with LF line ends.
 */
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
    const kept: string[] = [];
    const data: string[] = [];
    for (const line of lines) {
      const text = line.toString('utf8');
      const field = DATA_FIELD.exec(text);
      if (field) data.push(text.slice(field[0].length));
      else kept.push(text);
    }
    if (data.length > 0) {
      const reworked = await reworkOrKeep(Buffer.from(data.join('\n'), 'utf8'), schemaLimits);
      return Buffer.from(`${kept.map((line) => `${line}\n`).join('')}data: ${reworked.toString('utf8')}\n\n`, 'utf8');
    }
  }
  const parts: Buffer[] = [];
  for (const line of lines) parts.push(line, NEWLINE);
  parts.push(NEWLINE);
  return Buffer.concat(parts);
}

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

/** Splits an event stream into events (lines up to a blank line); CR, LF and CRLF all end a line. */
class EventSplitter {
  private lineParts: Uint8Array[] = [];
  private lines: Buffer[] = [];
  private skipLineFeed = false;

  push(chunk: Uint8Array): SseEvent[] {
    const events: SseEvent[] = [];
    let start = 0;
    if (this.skipLineFeed && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      this.skipLineFeed = false;
    }
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      this.lineParts.push(chunk.subarray(start, i));
      const line = Buffer.concat(this.lineParts);
      this.lineParts = [];
      if (line.length === 0) {
        if (this.lines.length > 0) events.push(this.lines);
        this.lines = [];
      } else {
        this.lines.push(line);
      }
      if (byte === CR) {
        if (i + 1 === chunk.length) this.skipLineFeed = true;
        else if (chunk[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) this.lineParts.push(chunk.subarray(start));
    return events;
  }
}

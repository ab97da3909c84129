import type { SchemaLimits } from '../json-schema/schema-limits.js';
import { offThread } from './off-thread-worker.js';

/**
 * Messages at least this large are parsed off the event loop (JSON.parse of 128 KiB takes about a
 * millisecond in place). A smaller message holds at most about 65,000 values, below the limit.
 */
export const OFF_THREAD_MIN_BYTES = 128 * 1024;
/**
 * The most values (objects, arrays, members, elements) an upstream message may hold. Each pass
 * Toolplane makes over a result (checking it is storable, scrubbing secrets, recording, answering)
 * is linear in its values and runs on the event loop: a result of 300,000 values held it 50–60 ms.
 */
export const MAX_MESSAGE_VALUES = 100_000;

/**
 * Parses a large upstream message on the worker thread: a multi-megabyte `tools/list` result held
 * the event loop 60–160 ms when parsed in place (the parse, then collecting its garbage); here the
 * loop only receives what is left once oversized schemas were trimmed. `bytes` (UTF-8 JSON) are
 * handed over and must not be used afterwards.
 */
export function parseLargeMessage(bytes: Buffer, schemaLimits?: SchemaLimits): Promise<unknown> {
  return parseOffThread(bytes, schemaLimits, false);
}

/** Like parseLargeMessage, answering the message as JSON text again (for a reader that parses text itself). */
export function reworkLargeMessage(bytes: Buffer, schemaLimits?: SchemaLimits): Promise<string> {
  return parseOffThread(bytes, schemaLimits, true) as Promise<string>;
}

function parseOffThread(bytes: Buffer, schemaLimits: SchemaLimits | undefined, asText: boolean): Promise<unknown> {
  // Hand the bytes over when they own their whole ArrayBuffer, copy them otherwise.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const payload = owned ? new Uint8Array(bytes.buffer as ArrayBuffer) : new Uint8Array(bytes);
  return offThread.run({ kind: 'parse', bytes: payload, maxValues: MAX_MESSAGE_VALUES, asText, ...(schemaLimits ? { schemaLimits } : {}) }, [payload.buffer as ArrayBuffer]);
}

export const largeMessagesOffThread = (): boolean => offThread.available;

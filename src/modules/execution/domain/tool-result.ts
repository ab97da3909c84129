import { jsonBytes, jsonPrefix } from '../../../shared/json-bytes.js';

/** A tool result as Toolplane records it: content items verbatim, structuredContent, isError. */
export interface RecordedToolResult {
  kind: 'result';
  isError: boolean;
  content: unknown[];
  structuredContent?: unknown;
  truncated: boolean;
  /** Serialized size of content + structuredContent as the upstream answered them. */
  originalBytes: number;
}

/**
 * Keeps a result within `maxBytes` (content + structuredContent, serialized). A larger one keeps its
 * content items in order while they fit, cuts the text of the first text item that does not, drops
 * the rest and appends a marker text item; structuredContent is dropped when it does not fit on its
 * own. Only for a budget smaller than the marker itself can the result exceed `maxBytes` (by the marker).
 */
export function limitResult(result: { isError: boolean; content: unknown[]; structuredContent?: unknown }, maxBytes: number): RecordedToolResult {
  const { isError, content, structuredContent } = result;
  const contentBytes = jsonBytes(content);
  const structuredBytes = structuredContent === undefined ? 0 : jsonBytes(structuredContent);
  const originalBytes = contentBytes + structuredBytes;
  if (originalBytes <= maxBytes) {
    return { kind: 'result', isError, content, ...(structuredContent === undefined ? {} : { structuredContent }), truncated: false, originalBytes };
  }

  // The marker's size is bounded by the digits of originalBytes and maxBytes; reserve it up front.
  const structuredFits = structuredContent !== undefined && structuredBytes <= maxBytes - markerBytes(originalBytes, maxBytes, false) - 2;
  const dropsStructured = structuredContent !== undefined && !structuredFits;
  const reserve = markerBytes(originalBytes, maxBytes, dropsStructured);
  let budget = maxBytes - reserve - (structuredFits ? structuredBytes : 0) - 2; // 2: the array brackets

  const kept: unknown[] = [];
  for (const item of content) {
    const separator = kept.length > 0 ? 1 : 0;
    const bytes = jsonBytes(item);
    if (bytes + separator <= budget) {
      kept.push(item);
      budget -= bytes + separator;
      continue;
    }
    const cut = cutTextItem(item, budget - separator);
    if (cut !== undefined) kept.push(cut);
    break;
  }

  kept.push(marker(originalBytes, jsonBytes(kept) + (structuredFits ? structuredBytes : 0), dropsStructured));
  return {
    kind: 'result',
    isError,
    content: kept,
    ...(structuredFits ? { structuredContent } : {}),
    truncated: true,
    originalBytes,
  };
}

function marker(originalBytes: number, keptBytes: number, droppedStructured: boolean): { type: 'text'; text: string } {
  const dropped = droppedStructured ? '; structuredContent dropped' : '';
  return { type: 'text', text: `[Toolplane: result truncated from ${originalBytes} bytes to ${keptBytes} bytes${dropped}]` };
}

/** Upper bound of the marker item's serialized size plus its separator. */
function markerBytes(originalBytes: number, maxBytes: number, droppedStructured: boolean): number {
  return jsonBytes(marker(originalBytes, Math.max(maxBytes, 0), droppedStructured)) + 1;
}

/** A text item shortened so that it serializes within `budget` bytes, or undefined when no text fits. */
function cutTextItem(item: unknown, budget: number): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  if (record.type !== 'text' || typeof record.text !== 'string') return undefined;
  const overhead = jsonBytes({ ...record, text: '' });
  const prefix = jsonPrefix(record.text, budget - overhead);
  return prefix.length > 0 ? { ...record, text: prefix } : undefined;
}

import type { DiscoveredTool, SkippedTool } from '../modules/sources/domain/upstream.js';

/** NUL, or a UTF-16 surrogate without its other half: text PostgreSQL refuses to store. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Longest name and description kept; an upstream's tool past them is skipped, not cut. */
const MAX_NAME_CHARS = 256;
const MAX_DESCRIPTION_CHARS = 64 * 1024;
/** Skipped tools listed on a source at most (each named, shortened). */
export const MAX_SKIPPED_LISTED = 100;

/**
 * Splits an upstream's listing into the tools Toolplane can keep and those it cannot (a name or
 * text it could not store or show), each with its reason, so one bad tool never costs the others.
 */
export function partitionListedTools(tools: DiscoveredTool[]): { kept: DiscoveredTool[]; skipped: SkippedTool[] } {
  const kept: DiscoveredTool[] = [];
  const skipped: SkippedTool[] = [];
  for (const tool of tools) {
    const reason = unfitness(tool);
    if (reason === undefined) kept.push(tool);
    else if (skipped.length < MAX_SKIPPED_LISTED) skipped.push({ name: shown(tool.name), reason });
  }
  return { kept, skipped };
}

function unfitness(tool: DiscoveredTool): string | undefined {
  if (typeof tool.name !== 'string' || tool.name.length === 0) return 'its name is empty';
  if (tool.name.length > MAX_NAME_CHARS) return `its name is longer than ${MAX_NAME_CHARS} characters`;
  if (UNSTORABLE.test(tool.name)) return 'its name holds a NUL character or a lone UTF-16 surrogate';
  if (tool.title !== undefined && UNSTORABLE.test(tool.title)) return 'its title holds a NUL character or a lone UTF-16 surrogate';
  if (tool.description !== undefined) {
    if (tool.description.length > MAX_DESCRIPTION_CHARS) return `its description is longer than ${MAX_DESCRIPTION_CHARS} characters`;
    if (UNSTORABLE.test(tool.description)) return 'its description holds a NUL character or a lone UTF-16 surrogate';
  }
  for (const [field, value] of Object.entries(tool.declared ?? { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations })) {
    if (UNSTORABLE.test(field)) return 'a field name holds a NUL character or a lone UTF-16 surrogate';
    if (value !== undefined && holdsUnstorable(value)) return `its ${field.slice(0, 100)} holds a NUL character or a lone UTF-16 surrogate`;
  }
  return undefined;
}

function holdsUnstorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return true;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        if (UNSTORABLE.test(key)) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

/** A name as it can be shown and stored: unstorable characters as visible escapes, at most 100 characters. */
function shown(name: unknown): string {
  const text = typeof name === 'string' ? name : String(name);
  const escaped = text.replace(new RegExp(UNSTORABLE.source, 'g'), (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > 100 ? `${escaped.slice(0, 100)}…` : escaped;
}

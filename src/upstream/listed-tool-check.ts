import type { DiscoveredTool, SkippedTool } from '../modules/sources/domain/upstream.js';
import { escapeUnstorable, holdsUnstorableText, isUnstorableText } from '../shared/database/stored-text.js';

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
  if (isUnstorableText(tool.name)) return 'its name holds a NUL character or a lone UTF-16 surrogate';
  if (tool.title !== undefined && isUnstorableText(tool.title)) return 'its title holds a NUL character or a lone UTF-16 surrogate';
  if (tool.description !== undefined) {
    if (tool.description.length > MAX_DESCRIPTION_CHARS) return `its description is longer than ${MAX_DESCRIPTION_CHARS} characters`;
    if (isUnstorableText(tool.description)) return 'its description holds a NUL character or a lone UTF-16 surrogate';
  }
  for (const [field, value] of Object.entries(tool.declared ?? { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations })) {
    if (isUnstorableText(field)) return 'a field name holds a NUL character or a lone UTF-16 surrogate';
    if (value !== undefined && holdsUnstorableText(value)) return `its ${field.slice(0, 100)} holds a NUL character or a lone UTF-16 surrogate`;
  }
  return undefined;
}

/** A name as it can be shown and stored: unstorable characters as visible escapes, at most 100 characters. */
function shown(name: unknown): string {
  const text = typeof name === 'string' ? name : String(name);
  const escaped = escapeUnstorable(text);
  return escaped.length > 100 ? `${escaped.slice(0, 100)}…` : escaped;
}

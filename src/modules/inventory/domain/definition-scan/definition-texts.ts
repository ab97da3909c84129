import type { ScannedTool } from './definition-finding.js';

/** Characters of one text the scan reads; the rest of a longer text is not read. */
export const TEXT_MAX_CHARS = 16_384;
/** Characters of one definition the scan reads, over all its texts. */
export const DEFINITION_MAX_CHARS = 131_072;
/** Levels of a schema the scan walks into. */
export const SCHEMA_MAX_DEPTH = 32;
/** Values (objects, arrays, members, elements) of the schemas and annotations the scan visits. */
export const DEFINITION_MAX_VALUES = 10_000;

/** One text of a definition: a field, a string anywhere in a schema or the annotations, or a member name. */
export interface DefinitionText {
  path: string;
  /** The text as declared, cut at TEXT_MAX_CHARS. */
  text: string;
  /** Its length as declared. */
  length: number;
  /** The name, title and description of the tool itself, rather than of a part of its schemas. */
  topLevel: boolean;
}

/** Every text of a definition the scan reads, and whether a limit left some of it unread. */
export interface DefinitionTexts {
  texts: DefinitionText[];
  /** Why some of the definition was not read (a limit), or undefined when all of it was. */
  unread?: string;
}

/** A path segment as DefinitionFinding.path writes it. */
export function pathSegment(key: string): string {
  return key.includes('~') || key.includes('.') ? key.replace(/~/g, '~0').replace(/\./g, '~1') : key;
}

interface Pending {
  value: unknown;
  path: string;
  depth: number;
}

/**
 * The texts of a definition in a bounded walk: iterative (no recursion to overflow), each object
 * visited once (shared or cyclic structures end), at most SCHEMA_MAX_DEPTH levels and
 * DEFINITION_MAX_VALUES values, each text cut at TEXT_MAX_CHARS and all of them at
 * DEFINITION_MAX_CHARS. Values of other types (numbers, booleans, null) carry no text.
 */
export function definitionTexts(tool: ScannedTool): DefinitionTexts {
  const texts: DefinitionText[] = [];
  let budget = DEFINITION_MAX_CHARS;
  let unread: string | undefined;
  const take = (path: string, text: string, topLevel: boolean): void => {
    if (text.length === 0) return;
    if (budget <= 0) {
      unread ??= `the definition holds more than ${DEFINITION_MAX_CHARS} characters of text`;
      return;
    }
    const read = Math.min(text.length, TEXT_MAX_CHARS, budget);
    budget -= read;
    if (read < Math.min(text.length, TEXT_MAX_CHARS)) unread ??= `the definition holds more than ${DEFINITION_MAX_CHARS} characters of text`;
    texts.push({ path, text: read < text.length ? text.slice(0, read) : text, length: text.length, topLevel });
  };

  for (const field of ['name', 'title', 'description'] as const) {
    const value: unknown = tool[field];
    if (typeof value === 'string') take(field, value, true);
  }

  const seen = new Set<object>();
  let values = 0;
  const stack: Pending[] = [];
  for (const field of ['annotations', 'outputSchema', 'inputSchema'] as const) {
    const value: unknown = tool[field];
    if (value !== undefined && value !== null) stack.push({ value, path: field, depth: 0 });
  }
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (++values > DEFINITION_MAX_VALUES) {
      unread ??= `the definition holds more than ${DEFINITION_MAX_VALUES} values`;
      break;
    }
    if (typeof value === 'string') {
      take(path, value, false);
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (depth >= SCHEMA_MAX_DEPTH) {
      unread ??= `the definition nests deeper than ${SCHEMA_MAX_DEPTH} levels`;
      continue;
    }
    const children: Pending[] = [];
    // No more children than values left to visit, however long the array or object.
    const room = Math.max(0, DEFINITION_MAX_VALUES - values - stack.length) + 1;
    if (Array.isArray(value)) {
      const count = Math.min(value.length, room);
      for (let index = 0; index < count; index++) children.push({ value: value[index], path: `${path}.${index}`, depth: depth + 1 });
    } else {
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        if (children.length >= room) break;
        const memberPath = `${path}.${pathSegment(key)}`;
        take(memberPath, key, false);
        children.push({ value: (value as Record<string, unknown>)[key], path: memberPath, depth: depth + 1 });
      }
    }
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return { texts, unread };
}

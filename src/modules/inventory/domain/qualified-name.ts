import { sha256Hex } from '../../../shared/canonical-json.js';

export const QUALIFIED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const SEPARATOR = '__';
/** What a shortened source part keeps of the source name at least, before the tool's name is cut too. */
const MIN_SOURCE_CHARS = 8;

/**
 * `{source}__{tool}`, valid for every LLM API (`^[a-zA-Z0-9_-]{1,64}$`). A name that had to be
 * sanitized or shortened gets a short hash of the original, so two upstream names that sanitize
 * or shorten alike never collide and the same upstream name always maps to the same result.
 *
 * A model tells tools apart by their own names, so when the whole is too long the source part is
 * shortened first (`{source prefix}_{hash}__{tool}`); the tool's name is cut only when it alone
 * leaves no room for a few characters of the source. Names already issued are kept by the
 * inventory (a tool keeps its name for as long as its source lists it), so this rule only names new tools.
 */
export function qualifiedNameFor(sourceName: string, toolName: string): string {
  return composeName(sourceName, toolName, sha256Hex(`${sourceName}/${toolName}`).slice(0, 6));
}

/** A longer, still stable, alternative for the rare case the first choice is taken. */
export function disambiguatedName(sourceName: string, toolName: string): string {
  return composeName(sourceName, toolName, sha256Hex(`${sourceName}/${toolName}`).slice(0, 12), true);
}

function composeName(sourceName: string, toolName: string, hash: string, alwaysHashed = false): string {
  const tool = toolName.replace(/[^a-zA-Z0-9_-]/g, '_');
  const plain = `${sourceName}${SEPARATOR}${tool}`;
  const sanitized = tool !== toolName || toolName.length === 0;
  if (!sanitized && !alwaysHashed && plain.length <= MAX_LENGTH) return plain;
  // Sanitized (or taken) but short enough: the hash goes at the end, the names stay whole.
  if (plain.length + 1 + hash.length <= MAX_LENGTH) return `${plain}_${hash}`;
  // Too long: the hash moves into the source part, which gives way first.
  const toolRoom = MAX_LENGTH - SEPARATOR.length - hash.length - 1 - Math.min(sourceName.length, MIN_SOURCE_CHARS);
  const toolPart = tool.slice(0, toolRoom);
  const sourceRoom = MAX_LENGTH - SEPARATOR.length - toolPart.length - hash.length - 1;
  return `${sourceName.slice(0, sourceRoom)}_${hash}${SEPARATOR}${toolPart}`;
}

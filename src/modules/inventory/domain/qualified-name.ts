import { sha256Hex } from './canonical-json.js';

export const QUALIFIED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const SEPARATOR = '__';

/**
 * `{source}__{tool}`, valid for every LLM API (`^[a-zA-Z0-9_-]{1,64}$`). A name that had to be
 * sanitized or shortened gets a short hash of the original, so two upstream names that
 * sanitize alike never collide and the same upstream name always maps to the same result.
 */
export function qualifiedNameFor(sourceName: string, toolName: string): string {
  const sanitized = toolName.replace(/[^a-zA-Z0-9_-]/g, '_');
  const plain = `${sourceName}${SEPARATOR}${sanitized}`;
  if (sanitized === toolName && toolName.length > 0 && plain.length <= MAX_LENGTH) return plain;
  return withSuffix(plain, shortHash(`${sourceName}/${toolName}`));
}

/** A longer, still stable, alternative for the rare case the first choice is taken. */
export function disambiguatedName(sourceName: string, toolName: string): string {
  const plain = `${sourceName}${SEPARATOR}${toolName.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return withSuffix(plain, sha256Hex(`${sourceName}/${toolName}`).slice(0, 12));
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_LENGTH - suffix.length - 1)}_${suffix}`;
}

function shortHash(text: string): string {
  return sha256Hex(text).slice(0, 6);
}

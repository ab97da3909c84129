import type { CatalogTool } from './catalog.js';

/** `_meta` key of a tool its reader cannot call before connecting its own account (or setting its own values) to the tool's source. */
export const CONNECTION_META_KEY = 'io.toolplane/connection';

/** Why a reader cannot call a source's tools yet: the source wants a credential of its own. */
export interface ConnectionNote {
  required: true;
  /** The source's name. */
  source: string;
  /** Where the reader connects (absent: nothing to open, e.g. a value to set, or a sign-in to use). */
  connectUrl?: string;
  /** What to do, when there is no URL to open. */
  hint?: string;
}

/** The notes of a reader, by source id: only the sources it lacks a credential for. */
export type MissingConnections = ReadonlyMap<string, ConnectionNote>;

export const NO_MISSING_CONNECTIONS: MissingConnections = new Map();

/** The sentence appended to such a tool's description, for a model to pass on to its user. */
export function connectionSentence(note: ConnectionNote): string {
  const how = note.connectUrl !== undefined ? `open ${note.connectUrl}` : (note.hint ?? 'ask an administrator how');
  return `Needs your connection to ${note.source} first: ${how}.`;
}

/** A description with the note's sentence after it (the sentence alone for a tool without one). */
export function notedDescription(description: string | null | undefined, note: ConnectionNote): string {
  const text = description?.trim();
  return text ? `${text}\n\n${connectionSentence(note)}` : connectionSentence(note);
}

/** The note of a tool's source in `missing`, if any. */
export function noteOf(missing: MissingConnections, tool: Pick<CatalogTool, 'source'>): ConnectionNote | undefined {
  return missing.size === 0 ? undefined : missing.get(tool.source.id);
}

/** The `_meta` of a noted tool: its own, with the note under CONNECTION_META_KEY. */
export function notedMeta(meta: unknown, note: ConnectionNote): Record<string, unknown> {
  const own = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
  const { hint: _hint, ...shown } = note;
  return { ...own, [CONNECTION_META_KEY]: shown };
}

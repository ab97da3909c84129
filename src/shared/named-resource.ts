import { sameJson } from './canonical-json.js';

/**
 * A named resource an administrator writes (a tool group, an interceptor): unique by its name,
 * which never changes, and stored with its revision.
 */
export interface NamedResource extends Revision {
  name: string;
}

/** What a stored named resource carries beside what was declared of it: its id, history and version. */
export interface Revision {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  updatedBy: string;
  /** Bumped by every change (optimistic lock). */
  version: number;
}

/** A revision as the REST API shows it. */
export interface RevisionView {
  version: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
}

export function revisionView(revision: Revision): RevisionView {
  return {
    version: revision.version,
    createdAt: revision.createdAt.toISOString(),
    updatedAt: revision.updatedAt.toISOString(),
    createdBy: revision.createdBy,
    updatedBy: revision.updatedBy,
  };
}

/** The revision of a resource just created. */
export function firstRevision(id: string, actor: string, now: Date): Revision {
  return { id, createdAt: now, updatedAt: now, createdBy: actor, updatedBy: actor, version: 1 };
}

/** What a change moves of a stored resource's revision. */
export function nextRevision(current: Revision, actor: string, now: Date): Pick<Revision, 'updatedAt' | 'updatedBy' | 'version'> {
  return { updatedAt: now, updatedBy: actor, version: current.version + 1 };
}

/**
 * The fields whose JSON differs between two forms of one resource (absent counts as null), each
 * with its value before and after; undefined when none does. `fields` defaults to every key of either.
 */
export function fieldChanges(
  was: Readonly<Record<string, unknown>>,
  is: Readonly<Record<string, unknown>>,
  fields: Iterable<string> = new Set([...Object.keys(was), ...Object.keys(is)]),
): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const field of fields) {
    if (sameJson(was[field] ?? null, is[field] ?? null)) continue;
    before[field] = was[field] ?? null;
    after[field] = is[field] ?? null;
  }
  return Object.keys(after).length === 0 ? undefined : { before, after };
}

/** Port: the stored resources of one kind, by name. */
export abstract class NamedRepository<T extends NamedResource> {
  abstract findByName(name: string, options?: { lock?: boolean }): Promise<T | undefined>;
  abstract insert(resource: T): Promise<void>;
  abstract update(resource: T): Promise<void>;
  abstract delete(id: string): Promise<void>;
  /** By name, after `after` (exclusive). */
  abstract list(after: string | undefined, limit: number): Promise<T[]>;
  abstract all(): Promise<T[]>;
}

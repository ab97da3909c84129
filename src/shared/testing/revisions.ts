import type { Revision } from '../named-resource.js';

/** The revision of a stored resource in specs: the first, written by `admin` at the start of 2026. */
export function aFirstRevision(id: string): Revision {
  const at = new Date('2026-01-01T00:00:00.000Z');
  return { id, createdAt: at, updatedAt: at, createdBy: 'admin', updatedBy: 'admin', version: 1 };
}

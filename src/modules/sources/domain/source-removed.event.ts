import type { UpstreamAuth } from './upstream-auth.js';

/**
 * A source was removed (soft-deleted), as it was just before: whoever kept something of its own
 * for it (its callers' upstream connections) lets go of it. Published once the removal committed.
 */
export class SourceRemoved {
  constructor(
    readonly source: { id: string; name: string; url: string | null; upstreamAuth: UpstreamAuth | null },
    /** Who removed it. */
    readonly actor: string,
  ) {}
}

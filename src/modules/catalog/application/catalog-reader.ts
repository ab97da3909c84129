import type { CatalogFilter, CatalogSearch, CatalogSlice } from '../domain/catalog.js';

/**
 * Which columns a catalog version covers: `agent` only what the agent formats show (the
 * definition, the names, status and enabled flags), `admin` also the timestamps and flags of
 * the full view, so a refresh that only moves `lastSeenAt` keeps the agents' tags valid.
 */
export type CatalogView = 'agent' | 'admin';

/** The read side the catalog queries (SQL on the inventory tables). */
export abstract class CatalogReader {
  /**
   * A fingerprint of every row the filter admits (search, cursor and limit aside): it changes
   * whenever any of them is added, removed or changed in what the view shows.
   */
  abstract version(filter: CatalogFilter, view: CatalogView): Promise<string>;

  /** One page: `limit` entries at most, by qualified name, or by rank then name when searching. */
  abstract search(search: CatalogSearch): Promise<CatalogSlice>;
}

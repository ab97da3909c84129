import type { CatalogTool } from '../domain/catalog.js';
import type { CatalogSourceSettings } from '../domain/catalog-snapshot.js';

/** What a snapshot is made of: live tools and live sources, read at one moment. */
export interface CatalogReading {
  tools: readonly CatalogTool[];
  sources: readonly CatalogSourceSettings[];
}

/** The times of a tool as stored: a refresh that changes nothing moves them without a new reading. */
export interface ToolTimes {
  firstSeenAt: string;
  lastSeenAt: string;
  updatedAt: string;
}

/** The stored catalog, as the catalog's snapshots read it (SQL on the inventory and sources tables). */
export abstract class CatalogReader {
  /** Every live tool (active or deprecated, enabled or not) of every live source, and every live source. */
  abstract readAll(): Promise<CatalogReading>;

  /** The live source with this id and its live tools; undefined when there is none (removed). */
  abstract readSource(sourceId: string): Promise<CatalogReading | undefined>;

  /** The stored times of these tools, by id (a tool no longer live has none). */
  abstract readTimes(toolIds: readonly string[]): Promise<Map<string, ToolTimes>>;
}

/**
 * Published after a change that may alter how a tool is reached or whether it may be used:
 * a source registered, changed or removed, an inventory refreshed, a tool enabled or disabled.
 * Read-side caches in this process drop what they hold for the source (all, without one).
 */
export class CatalogChanged {
  constructor(readonly sourceId?: string) {}
}

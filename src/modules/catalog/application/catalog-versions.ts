import { Inject, Injectable } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { CatalogChanged, InventorySeen } from '../../../shared/catalog-events.js';
import type { CatalogFilter } from '../domain/catalog.js';
import { CatalogReader, type CatalogView } from './catalog-reader.js';

/** How long a version is trusted without a catalog event (a change the event did not reach). */
export const CATALOG_VERSION_TTL_MS = 2000;
const MAX_ENTRIES = 1000;

/**
 * Catalog versions by view and filter, kept until the catalog changes: computing one hashes every
 * matching row, which on a large catalog costs more than the search it tags. Every change of what
 * a client lists publishes CatalogChanged in the process that made it and, through the database,
 * in every other one; the TTL bounds the rest. A refresh that changed nothing publishes
 * InventorySeen (its times moved, which the admin view shows) in its own process; in the others
 * that view's ETag follows within CATALOG_VERSION_TTL_MS.
 */
@Injectable()
@EventsHandler(CatalogChanged, InventorySeen)
export class CatalogVersions implements IEventHandler<CatalogChanged | InventorySeen> {
  private readonly versions = new Map<string, { version: Promise<string>; expiresAt: number }>();

  constructor(@Inject(CatalogReader) private readonly reader: CatalogReader) {}

  version(filter: CatalogFilter, view: CatalogView): Promise<string> {
    const key = `${view}:${JSON.stringify(filter)}`;
    const now = Date.now();
    const hit = this.versions.get(key);
    if (hit && hit.expiresAt > now) return hit.version;
    const version = this.reader.version(filter, view);
    version.catch(() => this.versions.delete(key));
    if (this.versions.size >= MAX_ENTRIES) this.versions.clear();
    this.versions.set(key, { version, expiresAt: now + CATALOG_VERSION_TTL_MS });
    return version;
  }

  handle(): void {
    this.versions.clear();
  }
}

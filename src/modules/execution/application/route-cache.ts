import { Inject, Injectable } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { CatalogChanged } from '../../../shared/catalog-events.js';
import { UpstreamTargets } from '../../sources/application/upstream-targets.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import { ToolRoute, ToolRouteReader } from './tool-route.js';

/** How long a route or target is trusted before it is read again (changes made by other processes). */
export const ROUTE_TTL_MS = 2000;

interface Entry<T> {
  value: T;
  sourceId: string | undefined;
  expiresAt: number;
}

/**
 * Keeps the hot path off the database: routes by qualified name and resolved targets by
 * source, each for ROUTE_TTL_MS, dropped at once when this process changes the catalog.
 * Resolved targets hold secret values in memory only.
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class RouteCache implements IEventHandler<CatalogChanged> {
  private readonly routes = new Map<string, Entry<ToolRoute | undefined>>();
  private readonly targets = new Map<string, Entry<Promise<UpstreamTarget | undefined>>>();

  constructor(
    @Inject(ToolRouteReader) private readonly reader: ToolRouteReader,
    @Inject(UpstreamTargets) private readonly upstreams: UpstreamTargets,
  ) {}

  async route(qualifiedName: string): Promise<ToolRoute | undefined> {
    const now = Date.now();
    const hit = this.routes.get(qualifiedName);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await this.reader.read(qualifiedName);
    if (this.routes.size > 10_000) this.routes.clear();
    this.routes.set(qualifiedName, { value, sourceId: value?.source.id, expiresAt: now + ROUTE_TTL_MS });
    return value;
  }

  target(sourceId: string): Promise<UpstreamTarget | undefined> {
    const now = Date.now();
    const hit = this.targets.get(sourceId);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = this.upstreams.forSource(sourceId);
    // A failed resolution (e.g. a deleted secret) is not cached.
    value.catch(() => this.targets.delete(sourceId));
    this.targets.set(sourceId, { value, sourceId, expiresAt: now + ROUTE_TTL_MS });
    return value;
  }

  handle(event: CatalogChanged): void {
    if (!event.sourceId) {
      this.routes.clear();
      this.targets.clear();
      return;
    }
    this.targets.delete(event.sourceId);
    for (const [name, entry] of this.routes) {
      if (entry.sourceId === event.sourceId || entry.value === undefined) this.routes.delete(name);
    }
  }
}

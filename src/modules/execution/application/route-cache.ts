import { Inject, Injectable } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { CatalogChanged } from '../../../shared/catalog-events.js';
import { CatalogSnapshots } from '../../catalog/application/catalog-snapshots.js';
import type { CatalogTool } from '../../catalog/domain/catalog.js';
import type { CatalogSourceSettings } from '../../catalog/domain/catalog-snapshot.js';
import { taskSupportOf } from '../../inventory/domain/tool-definition.js';
import { UpstreamTargets } from '../../sources/application/upstream-targets.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import type { ToolRoute } from './tool-route.js';

/** How long a resolved target is trusted before it is resolved again (a secret or variable changed since). */
export const TARGET_TTL_MS = 2000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * Keeps the hot path off the database. Routes come from the catalog's snapshot (every live tool
 * with its source's settings, usable or not: ExecuteTool refuses the unusable with their reason),
 * read from memory and replaced with the snapshot when the catalog changes, in this process or
 * another. Resolved targets are a small cache of their own, by source: they hold secret values,
 * which the snapshot — shared by every reader — must not, and a secret can change without the
 * catalog changing, so they are also resolved again after TARGET_TTL_MS.
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class RouteCache implements IEventHandler<CatalogChanged> {
  /** Routes by the tool object of the reading they were built from: a new reading of a source brings new objects. */
  private readonly routes = new WeakMap<CatalogTool, ToolRoute>();
  private readonly targets = new Map<string, Entry<Promise<UpstreamTarget | undefined>>>();

  constructor(
    @Inject(CatalogSnapshots) private readonly snapshots: CatalogSnapshots,
    @Inject(UpstreamTargets) private readonly upstreams: UpstreamTargets,
  ) {}

  async route(qualifiedName: string): Promise<ToolRoute | undefined> {
    const snapshot = this.snapshots.latest() ?? (await this.snapshots.snapshot());
    const found = snapshot.route(qualifiedName);
    if (!found) return undefined;
    let route = this.routes.get(found.tool);
    if (!route) {
      route = toRoute(found.tool, found.source);
      this.routes.set(found.tool, route);
    }
    return route;
  }

  target(sourceId: string): Promise<UpstreamTarget | undefined> {
    const now = Date.now();
    const hit = this.targets.get(sourceId);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = this.upstreams.forSource(sourceId);
    // A failed resolution (e.g. a deleted secret) is not cached.
    value.catch(() => this.targets.delete(sourceId));
    if (this.targets.size > 10_000) this.targets.clear();
    this.targets.set(sourceId, { value, expiresAt: now + TARGET_TTL_MS });
    return value;
  }

  handle(event: CatalogChanged): void {
    if (event.sourceId) this.targets.delete(event.sourceId);
    else this.targets.clear();
  }
}

function toRoute(tool: CatalogTool, source: CatalogSourceSettings): ToolRoute {
  return {
    tool: {
      id: tool.id,
      name: tool.name,
      qualifiedName: tool.qualifiedName,
      definitionHash: tool.definitionHash,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
      description: tool.description,
      unusableReason: tool.unusableReason,
      status: tool.status,
      enabled: tool.enabled,
      taskSupport: taskSupportOf(tool.definition),
      reviewState: tool.reviewState,
    },
    source: {
      id: source.id,
      name: source.name,
      enabled: source.enabled,
      readOnly: source.readOnly,
      timeoutMs: source.timeoutMs,
      maxConcurrency: source.maxConcurrency,
      rateLimitPerMinute: source.rateLimitPerMinute,
      circuitBreaker: source.circuitBreaker,
    },
  };
}

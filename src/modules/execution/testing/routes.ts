import type { KnownSecret } from '../../../shared/secret-scrubber.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import type { CatalogTool } from '../../catalog/domain/catalog.js';
import type { CatalogSourceSettings } from '../../catalog/domain/catalog-snapshot.js';
import { aToolView } from '../../inventory/testing/builders.js';
import type { ToolRoute } from '../application/tool-route.js';

type RouteChanges = { tool?: Partial<ToolRoute['tool']>; source?: Partial<ToolRoute['source']> };

/** A route to a usable tool `{source}__{name}` of an enabled stdio source, with the given changes. */
export function aRoute(qualifiedName = 'everything__echo', changes: RouteChanges = {}): ToolRoute {
  const [sourceName, name] = qualifiedName.split('__') as [string, string];
  return {
    tool: {
      id: `tool-${qualifiedName}`,
      name,
      qualifiedName,
      definitionHash: `hash-${qualifiedName}`,
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      outputSchema: null,
      annotations: null,
      description: null,
      unusableReason: null,
      status: 'active',
      enabled: true,
      taskSupport: 'forbidden',
      reviewState: 'approved',
      ...changes.tool,
    },
    source: {
      id: `source-${sourceName}`,
      name: sourceName,
      enabled: true,
      readOnly: false,
      timeoutMs: 30_000,
      maxConcurrency: 4,
      rateLimitPerMinute: null,
      circuitBreaker: { failureThreshold: 2, resetTimeoutMs: 1000 },
      ...changes.source,
    },
  };
}

/** How to reach the route's source: a stdio command, with the given secrets among its values. */
export function aTarget(route: ToolRoute, secrets: readonly KnownSecret[] = []): UpstreamTarget {
  return {
    sourceId: route.source.id,
    sourceName: route.source.name,
    transport: 'stdio',
    lifecycle: 'singleton',
    command: 'node',
    args: ['server.js'],
    env: Object.fromEntries(secrets.map(({ name, value }) => [name, value])),
    headers: {},
    secrets,
  };
}

/** The route as the catalog stores it: its source's settings and its tool. */
export function inCatalog(route: ToolRoute): { source: CatalogSourceSettings; tool: CatalogTool } {
  const { source, tool } = route;
  return {
    source: { ...source },
    tool: aToolView(tool.qualifiedName, {
      ...tool,
      source: { id: source.id, name: source.name, enabled: source.enabled, readOnly: source.readOnly },
      definition: { name: tool.name, inputSchema: tool.inputSchema },
    }),
  };
}

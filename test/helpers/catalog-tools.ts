import type { CatalogTool, CatalogToolSource } from '../../src/modules/inventory/domain/tool-definition.js';
import { declaredTool } from '../../src/modules/inventory/domain/tool-definition.js';
import type { CatalogSourceSettings } from '../../src/modules/catalog/domain/catalog-snapshot.js';

/**
 * A catalog tool for unit specs, named `{source}__{tool}`: active, enabled, of an enabled source
 * whose id is its name; `definition` made of the fields, as a tool declared with only those.
 */
export function catalogTool(qualifiedName: string, extra: Partial<Omit<CatalogTool, 'source'>> = {}, source: Partial<CatalogToolSource> = {}): CatalogTool {
  const [sourceName, name] = qualifiedName.split('__') as [string, string];
  const fields = {
    id: qualifiedName,
    qualifiedName,
    name,
    source: { id: sourceName, name: sourceName, enabled: true, readOnly: false, ...source },
    title: null,
    description: null,
    inputSchema: { type: 'object' },
    outputSchema: null,
    annotations: null,
    unusableReason: null,
    definitionHash: qualifiedName,
    declaredHash: qualifiedName,
    status: 'active' as const,
    enabled: true,
    reviewState: 'approved' as const,
    findings: [],
    listPosition: null,
    firstSeenAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
  const definition =
    extra.definition ??
    declaredTool({
      name: fields.name,
      title: fields.title ?? undefined,
      description: fields.description ?? undefined,
      inputSchema: fields.inputSchema,
      outputSchema: fields.outputSchema ?? undefined,
      annotations: fields.annotations ?? undefined,
    });
  return { ...fields, definition };
}

/** The settings of the source a tool names (as catalogTool makes it), with Toolplane's defaults. */
export function sourceSettings(source: CatalogToolSource | string, extra: Partial<CatalogSourceSettings> = {}): CatalogSourceSettings {
  const { id, name, enabled, readOnly } = typeof source === 'string' ? { id: source, name: source, enabled: true, readOnly: false } : source;
  return { id, name, enabled, readOnly, timeoutMs: 60_000, maxConcurrency: 16, rateLimitPerMinute: null, circuitBreaker: { failureThreshold: 5, resetTimeoutMs: 30_000 }, ...extra };
}

/** The settings of every source the tools name, once each. */
export function sourcesOf(tools: readonly CatalogTool[]): CatalogSourceSettings[] {
  const sources = new Map<string, CatalogSourceSettings>();
  for (const tool of tools) if (!sources.has(tool.source.id)) sources.set(tool.source.id, sourceSettings(tool.source));
  return [...sources.values()];
}

import { SourceTool } from '../domain/source-tool.js';
import type { CatalogTool, ToolDefinition } from '../domain/tool-definition.js';

export const DISCOVERED_AT = new Date('2026-01-01T00:00:00Z');

/** A tool taking any object, with `overrides`. */
export function aToolDefinition(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, inputSchema: { type: 'object' }, ...overrides };
}

/** An active, enabled, approved tool `{source}__{name}` of a source, as its first discovery stores it. */
export function aSourceTool(sourceId: string, qualifiedName: string, overrides: Partial<ToolDefinition> = {}): SourceTool {
  const name = qualifiedName.split('__').at(-1)!;
  const tool = SourceTool.discover(`tool-${qualifiedName}`, sourceId, qualifiedName, aToolDefinition(name, overrides), DISCOVERED_AT, 0);
  tool.approveCurrent(DISCOVERED_AT);
  return tool;
}

/** A tool as the read side shows it, of an enabled source named by the qualified name's first part. */
export function aToolView(qualifiedName: string, overrides: Partial<CatalogTool> = {}): CatalogTool {
  const [sourceName, name] = qualifiedName.split('__') as [string, string];
  const at = DISCOVERED_AT.toISOString();
  return {
    id: `tool-${qualifiedName}`,
    qualifiedName,
    name,
    source: { id: `source-${sourceName}`, name: sourceName, enabled: true, readOnly: false },
    title: null,
    description: null,
    inputSchema: { type: 'object' },
    outputSchema: null,
    annotations: null,
    definition: { name, inputSchema: { type: 'object' } },
    unusableReason: null,
    definitionHash: 'hash',
    declaredHash: 'hash',
    status: 'active',
    enabled: true,
    reviewState: 'approved',
    findings: [],
    listPosition: 0,
    firstSeenAt: at,
    lastSeenAt: at,
    updatedAt: at,
    ...overrides,
  };
}

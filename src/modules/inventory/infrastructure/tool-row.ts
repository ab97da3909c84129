import type { ToolView } from '../application/tool-view.js';

/** One tool with its source, as the read side selects it: `SELECT ${TOOL_COLUMNS} ${TOOL_FROM}`. */
export interface ToolRow {
  id: string;
  qualified_name: string;
  name: string;
  source_id: string;
  source_name: string;
  source_enabled: boolean;
  source_read_only: boolean;
  title: string | null;
  description: string | null;
  definition: Record<string, unknown>;
  annotations: Record<string, unknown> | null;
  unusable_reason: string | null;
  definition_hash: string;
  declared_hash: string;
  status: 'active' | 'deprecated';
  enabled: boolean;
  first_seen_at: Date;
  last_seen_at: Date;
  updated_at: Date;
}

export const TOOL_COLUMNS = `t.id, t.qualified_name, t.name, t.source_id, s.name AS source_name, s.enabled AS source_enabled,
       s.read_only AS source_read_only, t.title, t.description, t.definition, t.annotations, t.unusable_reason,
       t.definition_hash, t.declared_hash, t.status, t.enabled, t.first_seen_at, t.last_seen_at, t.updated_at`;
export const TOOL_FROM = 'FROM source_tools t JOIN sources s ON s.id = t.source_id';

export function toToolView(r: ToolRow): ToolView {
  return {
    id: r.id,
    qualifiedName: r.qualified_name,
    name: r.name,
    source: { id: r.source_id, name: r.source_name, enabled: r.source_enabled, readOnly: r.source_read_only },
    title: r.title,
    description: r.description,
    inputSchema: r.definition.inputSchema as Record<string, unknown>,
    outputSchema: (r.definition.outputSchema as Record<string, unknown> | undefined) ?? null,
    // As declared (in the upstream's key order), not the column kept for queries.
    annotations: (r.definition.annotations as Record<string, unknown> | undefined) ?? null,
    definition: r.definition,
    unusableReason: r.unusable_reason,
    definitionHash: r.definition_hash,
    declaredHash: r.declared_hash,
    status: r.status,
    enabled: r.enabled,
    firstSeenAt: r.first_seen_at.toISOString(),
    lastSeenAt: r.last_seen_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

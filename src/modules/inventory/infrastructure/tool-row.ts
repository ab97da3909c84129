import type { DefinitionFinding } from '../domain/definition-scan/index.js';
import type { ToolReviewState } from '../domain/pinning/pinning.js';
import type { CatalogTool } from '../domain/tool-definition.js';

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
  unusable_reason: string | null;
  definition_hash: string;
  declared_hash: string;
  status: 'active' | 'deprecated';
  enabled: boolean;
  review_state: ToolReviewState;
  scan_findings: DefinitionFinding[];
  list_position: number | null;
  /** The three times, already as Date.prototype.toISOString writes them (see isoTime). */
  first_seen_at: string;
  last_seen_at: string;
  updated_at: string;
}

/**
 * A timestamptz as Date.prototype.toISOString writes it (UTC, milliseconds cut, not rounded),
 * written by PostgreSQL: parsing each time into a Date and formatting it again cost more than the
 * rest of a catalog row.
 */
export const isoTime = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const TOOL_COLUMNS = `t.id, t.qualified_name, t.name, t.source_id, s.name AS source_name, s.enabled AS source_enabled,
       s.read_only AS source_read_only, t.title, t.description, t.definition, t.unusable_reason,
       t.definition_hash, t.declared_hash, t.status, t.enabled, t.review_state, t.scan_findings, t.list_position, ${isoTime('t.first_seen_at')} AS first_seen_at,
       ${isoTime('t.last_seen_at')} AS last_seen_at, ${isoTime('t.updated_at')} AS updated_at`;
export const TOOL_FROM = 'FROM source_tools t JOIN sources s ON s.id = t.source_id';

export function toCatalogTool(r: ToolRow): CatalogTool {
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
    reviewState: r.review_state,
    findings: r.scan_findings,
    listPosition: r.list_position,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
    updatedAt: r.updated_at,
  };
}

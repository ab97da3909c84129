/**
 * The catalog: the read side agents see. One entry is one tool of one source, as the inventory
 * holds it (CatalogTool); formats turn entries into what MCP clients and LLM APIs expect.
 */
import type { ToolScope } from '../../../shared/principal/tool-scope.js';
import type { CatalogTool } from '../../inventory/domain/tool-definition.js';
import { decideTool } from '../../access/domain/tool-scope.js';
import { isUsable } from './tool-usability.js';

export type { CatalogTool };

export type ToolStatusFilter = 'active' | 'deprecated' | 'all';

/**
 * Which tools a listing covers. The defaults are the agent's view: the tools an agent may use
 * (isUsable); each of status, enabled and the source's admission can be widened explicitly.
 */
export interface CatalogFilter {
  /** A source id or name. */
  source?: string;
  status: ToolStatusFilter;
  enabled: boolean | 'all';
  /** Also tools their source does not admit: of a disabled source, unusable, or not read-only on a read-only source. */
  includeDisabledSources: boolean;
  /** Effective MCP annotation hints, with the defaults the MCP specification gives absent ones. */
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  /** Only the tools this principal may see (see decideTool). */
  scope?: ToolScope;
}

export const DEFAULT_FILTER: CatalogFilter = { status: 'active', enabled: true, includeDisabledSources: false };

/** Whether the default filter's tools are those an agent may use: kept equal by `admits`, below. */
export function isAgentView(filter: CatalogFilter): boolean {
  return filter.status === 'active' && filter.enabled === true && !filter.includeDisabledSources;
}

/** An MCP annotation hint; absent, or not a boolean: the default the MCP specification gives it. */
function hint(tool: CatalogTool, name: string, fallback: boolean): boolean {
  const value = tool.annotations?.[name];
  return typeof value === 'boolean' ? value : fallback;
}

const readOnlyHint = (tool: CatalogTool) => hint(tool, 'readOnlyHint', false);
/** destructiveHint and idempotentHint only mean something for tools that are not read-only. */
const HINTS: Record<'readOnly' | 'destructive' | 'idempotent' | 'openWorld', (tool: CatalogTool) => boolean> = {
  readOnly: readOnlyHint,
  destructive: (tool) => !readOnlyHint(tool) && hint(tool, 'destructiveHint', true),
  idempotent: (tool) => readOnlyHint(tool) || hint(tool, 'idempotentHint', false),
  openWorld: (tool) => hint(tool, 'openWorldHint', true),
};

/** Whether `filter` admits `tool` (a live tool: of a source not removed, not retired), seen through `group` when given. */
export function admits(filter: CatalogFilter, tool: CatalogTool, group?: string): boolean {
  if (filter.source !== undefined && tool.source.id !== filter.source && tool.source.name !== filter.source) return false;
  if (filter.status !== 'all' && tool.status !== filter.status) return false;
  if (filter.enabled !== 'all' && tool.enabled !== filter.enabled) return false;
  // The source's side of the one usable rule: the tool's own status and flag are the filter's.
  if (!filter.includeDisabledSources && !isUsable({ ...tool, status: 'active', enabled: true })) return false;
  for (const name of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const) {
    const wanted = filter[name];
    if (wanted !== undefined && HINTS[name](tool) !== wanted) return false;
  }
  return !filter.scope || decideTool(filter.scope, { qualifiedName: tool.qualifiedName, sourceName: tool.source.name, ...(group !== undefined ? { group } : {}) }).allowed;
}

export const CATALOG_FORMATS = ['mcp', 'openai', 'openai-responses', 'anthropic'] as const;
/** `admin` is the default (no `format` parameter): the full inventory view. */
export type CatalogFormat = 'admin' | (typeof CATALOG_FORMATS)[number];

export const STRICT_FORMATS: readonly CatalogFormat[] = ['openai', 'openai-responses'];

/** Where a page starts: after this qualified name, and (for searches) after this rank. */
export interface CatalogCursor {
  name: string;
  /** The rank of the last row, a decimal string with at most 6 fraction digits. */
  rank?: string;
}

export interface NotConvertible {
  name: string;
  reason: string;
}

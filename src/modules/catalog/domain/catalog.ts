import type { ToolScope } from '../../../shared/principal/tool-scope.js';
/**
 * The catalog: the read side agents see. One entry is one tool of one source, as the
 * inventory holds it; formats turn entries into what MCP clients and LLM APIs expect.
 */

import type { ToolView } from '../../inventory/application/tool-view.js';

export type ToolStatusFilter = 'active' | 'deprecated' | 'all';

/** The full admin view of a tool (the same shape as `GET /api/v1/tools/{qualifiedName}`). */
export type CatalogEntry = ToolView;

/**
 * Which tools a listing covers. The defaults are the agent's view: active, enabled tools of
 * enabled (and not removed) sources; each can be widened explicitly.
 */
export interface CatalogFilter {
  /** A source id or name. */
  source?: string;
  status: ToolStatusFilter;
  enabled: boolean | 'all';
  includeDisabledSources: boolean;
  /** Effective MCP annotation hints, with the MCP defaults applied (see the SQL reader). */
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  /** Only the tools this principal may see (see decideTool); the same rule in SQL. */
  scope?: ToolScope;
}

export const DEFAULT_FILTER: CatalogFilter = { status: 'active', enabled: true, includeDisabledSources: false };

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

/** A search, parsed: the whole text (for name matching) and its words (for full-text search). */
export interface CatalogSearchText {
  text: string;
  terms: string[];
}

export interface CatalogSearch {
  filter: CatalogFilter;
  search?: CatalogSearchText;
  after?: CatalogCursor;
  limit: number;
}

export interface CatalogSlice {
  entries: CatalogEntry[];
  /** The rank of each entry when searching, in the same order. */
  ranks?: string[];
  hasMore: boolean;
}

export interface NotConvertible {
  name: string;
  reason: string;
}

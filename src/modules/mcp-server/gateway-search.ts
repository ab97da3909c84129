import type { ToolScope } from '../../shared/principal/tool-scope.js';
import { DEFAULT_FILTER } from '../catalog/domain/catalog.js';
import type { CatalogSnapshot } from '../catalog/domain/catalog-snapshot.js';
import { toSearchResult, type ToolSearchResult } from '../catalog/domain/tool-formats.js';
import { parseSearch } from '../catalog/domain/tool-search.js';

/**
 * What the gateway's `search_tools` answers: the catalog's one search, as `GET /api/v1/tools?q=`
 * ranks it, over the tools the caller may use; a blank query lists the first of them by name.
 */
export function searchCatalog(snapshot: CatalogSnapshot, query: string, limit: number, scope?: ToolScope): ToolSearchResult[] {
  const search = parseSearch(query);
  const found = search ? snapshot.search(search, scope ? { ...DEFAULT_FILTER, scope } : DEFAULT_FILTER).map((hit) => hit.tool) : snapshot.usableFor(scope);
  return found.slice(0, limit).map(toSearchResult);
}

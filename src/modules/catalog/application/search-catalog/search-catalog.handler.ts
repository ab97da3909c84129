import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { CatalogCursor, CatalogFilter, CatalogTool } from '../../domain/catalog.js';
import { catalogEtag, ifNoneMatchHits } from '../../domain/catalog-etag.js';
import type { CatalogSnapshot } from '../../domain/catalog-snapshot.js';
import { formatTools } from '../../domain/tool-formats.js';
import type { SearchHit } from '../../domain/tool-search.js';
import { encodeCatalogCursor } from '../catalog-cursor.js';
import { CatalogReader } from '../catalog-reader.js';
import { CatalogSnapshots } from '../catalog-snapshots.js';
import { GroupViews } from '../group-views.js';
import type { GroupView, ServedTool } from '../../domain/group-view.js';
import { CatalogAnswer, CatalogRequest, SearchCatalogQuery } from './search-catalog.query.js';
import { partitionPoint } from '../../../../shared/partition-point.js';
import type { Principal } from '../../../../shared/principal/principal.js';
import { NO_MISSING_CONNECTIONS, noteOf, type MissingConnections } from '../../domain/connection-notes.js';
import { PrincipalConnections } from '../principal-connections.js';

interface Slice<T extends CatalogTool = CatalogTool> {
  entries: T[];
  /** The rank of the last entry, when searching. */
  lastRank?: string;
  hasMore: boolean;
}

/**
 * SearchCatalog over the catalog's snapshot: the tools the filter admits, by qualified name, or
 * found by the one search (ToolSearchIndex, which the MCP gateway's search_tools ranks with too)
 * by rank then name. The ETag is the snapshot's version of the listing; the admin view also shows
 * each tool's stored times, read with the page, which its tag covers.
 */
@QueryHandler(SearchCatalogQuery)
export class SearchCatalogHandler implements IQueryHandler<SearchCatalogQuery, CatalogAnswer> {
  constructor(
    @Inject(CatalogSnapshots) private readonly snapshots: CatalogSnapshots,
    @Inject(CatalogReader) private readonly reader: CatalogReader,
    @Inject(GroupViews) private readonly groups: GroupViews,
    @Inject(PrincipalConnections) private readonly connections: PrincipalConnections,
  ) {}

  async execute({ request, ifNoneMatch, reader }: SearchCatalogQuery): Promise<CatalogAnswer> {
    if (request.group !== undefined) return this.groupPage(await this.groups.existing(request.group), request, ifNoneMatch, reader);
    const snapshot = await this.snapshots.snapshot();
    const admin = request.format === 'admin';
    const slice = page(snapshot, request);
    const missing = await this.missing(reader, slice.entries);
    let version = snapshot.version(request.filter, admin ? 'admin' : 'agent') + missingVersion(missing);
    if (admin) {
      slice.entries = await this.withStoredTimes(slice.entries);
      version += slice.entries.map((tool) => `\n${tool.id} ${tool.firstSeenAt} ${tool.lastSeenAt} ${tool.updatedAt}`).join('');
    }
    const etag = catalogEtag(etagKey(request), version);
    if (ifNoneMatchHits(ifNoneMatch, etag)) return { etag, notModified: true };

    const last = slice.entries.at(-1);
    const nextCursor = slice.hasMore && last ? encodeCatalogCursor({ name: last.qualifiedName, rank: slice.lastRank }, request.search) : null;
    const { items, notConvertible } = formatTools(slice.entries, request.format, request.strict, undefined, (tool) => noteOf(missing, tool));
    return { etag, notModified: false, page: notConvertible ? { items, nextCursor, notConvertible } : { items, nextCursor } };
  }

  /** The sources of the page its reader lacks a credential for: one read per page, whatever its size. */
  private async missing(reader: Principal | undefined, entries: readonly CatalogTool[]): Promise<MissingConnections> {
    if (!reader || entries.length === 0) return NO_MISSING_CONNECTIONS;
    return this.connections.missingFor(reader, [...new Set(entries.map((tool) => tool.source.id))]);
  }

  /** A page of a group's view: its tools under their served names, the admin view with them as served too. */
  private async groupPage(view: GroupView, request: CatalogRequest, ifNoneMatch: string | undefined, reader: Principal | undefined): Promise<CatalogAnswer> {
    const slice = page(view, request);
    const missing = await this.missing(reader, slice.entries);
    const etag = catalogEtag(etagKey(request), view.version(request.filter) + missingVersion(missing));
    if (ifNoneMatchHits(ifNoneMatch, etag)) return { etag, notModified: true };
    const last = slice.entries.at(-1);
    const nextCursor = slice.hasMore && last ? encodeCatalogCursor({ name: last.qualifiedName, rank: slice.lastRank }, request.search) : null;
    // The admin view shows a tool as the group serves it and its served name; what a call adds stays the group's.
    const entries = request.format === 'admin' ? slice.entries.map(({ locked: _locked, defaults: _defaults, ...tool }) => tool as CatalogTool) : slice.entries;
    const { items, notConvertible } = formatTools(entries, request.format, request.strict, (tool) => (tool as ServedTool).servedName, (tool) => noteOf(missing, tool));
    return { etag, notModified: false, page: notConvertible ? { items, nextCursor, notConvertible } : { items, nextCursor } };
  }

  /** The tools with their times as stored now (a refresh that changed nothing moved them without a new snapshot). */
  private async withStoredTimes(tools: CatalogTool[]): Promise<CatalogTool[]> {
    const times = await this.reader.readTimes(tools.map((tool) => tool.id));
    return tools.map((tool) => {
      const stored = times.get(tool.id);
      return stored ? { ...tool, ...stored } : tool;
    });
  }
}

/** What the notes add to a listing's version: a connection made or dropped changes its ETag. */
function missingVersion(missing: MissingConnections): string {
  return missing.size === 0 ? '' : `\nneeds ${[...missing.keys()].sort().join(' ')}`;
}

function page<T extends CatalogTool>(snapshot: { list(filter: CatalogFilter, after: string | undefined, limit: number): T[]; search: CatalogSnapshot['search'] }, { filter, search, after, limit }: CatalogRequest): Slice<T> {
  if (!search) {
    const entries = snapshot.list(filter, after?.name, limit + 1);
    return { entries: entries.slice(0, limit), hasMore: entries.length > limit };
  }
  const hits = snapshot.search(search, filter);
  const start = after ? firstAfter(hits, after) : 0;
  const taken = hits.slice(start, start + limit);
  return { entries: taken.map((hit) => hit.tool as T), lastRank: taken.at(-1)?.score.toFixed(6), hasMore: start + limit < hits.length };
}

/** Where the hits after the cursor begin, in their order: rank descending, then qualified name. */
function firstAfter(hits: readonly SearchHit[], after: CatalogCursor): number {
  const rank = Number(after.rank ?? '0');
  return partitionPoint(hits, (hit) => hit.score < rank || (hit.score === rank && hit.tool.qualifiedName > after.name));
}

/** Everything of the request that shapes the body, in a fixed order. */
function etagKey(request: CatalogRequest): unknown {
  const { filter } = request;
  return {
    filter: [
      filter.source ?? null,
      filter.status,
      filter.enabled,
      filter.includeDisabledSources,
      filter.readOnly ?? null,
      filter.destructive ?? null,
      filter.idempotent ?? null,
      filter.openWorld ?? null,
      filter.scope ?? null,
    ],
    q: request.search?.text ?? null,
    group: request.group ?? null,
    format: request.format,
    strict: request.strict,
    after: request.after ? [request.after.name, request.after.rank ?? null] : null,
    limit: request.limit,
  };
}

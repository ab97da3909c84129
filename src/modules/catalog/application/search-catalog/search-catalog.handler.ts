import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { catalogEtag, ifNoneMatchHits } from '../../domain/catalog-etag.js';
import { formatTools } from '../../domain/tool-formats.js';
import { encodeCatalogCursor } from '../catalog-cursor.js';
import { CatalogReader } from '../catalog-reader.js';
import { CatalogVersions } from '../catalog-versions.js';
import { CatalogAnswer, CatalogRequest, SearchCatalogQuery } from './search-catalog.query.js';

@QueryHandler(SearchCatalogQuery)
export class SearchCatalogHandler implements IQueryHandler<SearchCatalogQuery, CatalogAnswer> {
  constructor(
    @Inject(CatalogReader) private readonly reader: CatalogReader,
    @Inject(CatalogVersions) private readonly versions: CatalogVersions,
  ) {}

  async execute({ request, ifNoneMatch }: SearchCatalogQuery): Promise<CatalogAnswer> {
    // The version is read before the page: the page is then at least as new as the tag it gets,
    // so a tag never vouches for rows older than the ones it was computed from.
    const version = await this.versions.version(request.filter, request.format === 'admin' ? 'admin' : 'agent');
    const etag = catalogEtag(etagKey(request), version);
    if (ifNoneMatchHits(ifNoneMatch, etag)) return { etag, notModified: true };

    const slice = await this.reader.search({ filter: request.filter, search: request.search, after: request.after, limit: request.limit });
    const last = slice.entries.at(-1);
    const nextCursor =
      slice.hasMore && last ? encodeCatalogCursor({ name: last.qualifiedName, rank: slice.ranks?.at(-1) }, request.search) : null;
    const { items, notConvertible } = formatTools(slice.entries, request.format, request.strict);
    return { etag, notModified: false, page: notConvertible ? { items, nextCursor, notConvertible } : { items, nextCursor } };
  }
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
    format: request.format,
    strict: request.strict,
    after: request.after ? [request.after.name, request.after.rank ?? null] : null,
    limit: request.limit,
  };
}

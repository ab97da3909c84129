import { Query } from '@nestjs/cqrs';
import type { CatalogCursor, CatalogFilter, CatalogFormat, NotConvertible } from '../../domain/catalog.js';
import type { SearchQuery } from '../../domain/tool-search.js';
import type { FormattedTool } from '../../domain/tool-formats.js';
import type { Page } from '../../../../shared/page.js';
import type { Principal } from '../../../../shared/principal/principal.js';

/** A catalog listing, as `GET /api/v1/tools` takes it (already validated). */
export interface CatalogRequest {
  filter: CatalogFilter;
  search?: SearchQuery;
  format: CatalogFormat;
  /** OpenAI strict mode; only with the openai formats. */
  strict: boolean;
  after?: CatalogCursor;
  limit: number;
  /** A group's view instead of the whole catalog: its tools under their served names, with its overrides. */
  group?: string;
}

export interface CatalogPage extends Page<FormattedTool> {
  /** The LLM formats only: tools of this page that the format cannot express, with why. */
  notConvertible?: NotConvertible[];
}

export type CatalogAnswer = { etag: string; notModified: true } | { etag: string; notModified: false; page: CatalogPage };

/** SearchCatalog: one page of the catalog, or "not modified" when the caller's tag is still current. */
export class SearchCatalogQuery extends Query<CatalogAnswer> {
  constructor(
    readonly request: CatalogRequest,
    /** The caller's `If-None-Match`, if any. */
    readonly ifNoneMatch?: string,
    /** Whose connections the listing notes (see PrincipalConnections); absent: none. */
    readonly reader?: Principal,
  ) {
    super();
  }
}

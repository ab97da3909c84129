import { ProblemDetail, ValidationFailed } from '../../../shared/domain-error.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { decodeCatalogCursor } from '../application/catalog-cursor.js';
import type { CatalogRequest } from '../application/search-catalog/search-catalog.query.js';
import { CATALOG_FORMATS, CatalogCursor, CatalogFilter, CatalogFormat, STRICT_FORMATS } from '../domain/catalog.js';
import { parseSearch } from '../domain/tool-search.js';

/** `GET /api/v1/tools` query parameters, every problem reported at once (unknown parameters too). */
export function parseCatalogRequest(query: Record<string, unknown>): CatalogRequest & { as?: string } {
  const params = new QueryParams(query);
  const as = params.string('as', { max: 100 });
  const group = params.string('group', { max: 100 });
  const search = parseSearch(params.string('q', { max: 200 }));
  const enabled = params.string('enabled', { oneOf: ['true', 'false', 'all'] }) ?? 'true';
  const filter: CatalogFilter = {
    source: params.string('source', { max: 100 }),
    status: (params.string('status', { oneOf: ['active', 'deprecated', 'all'] }) ?? 'active') as CatalogFilter['status'],
    enabled: enabled === 'all' ? 'all' : enabled === 'true',
    includeDisabledSources: params.boolean('includeDisabledSources') ?? false,
    readOnly: params.boolean('readOnly'),
    destructive: params.boolean('destructive'),
    idempotent: params.boolean('idempotent'),
    openWorld: params.boolean('openWorld'),
  };
  const format = (params.string('format', { oneOf: CATALOG_FORMATS }) ?? 'admin') as CatalogFormat;
  const strictGiven = params.boolean('strict');
  const { cursor, limit } = params.page(100, 500);

  const problems: ProblemDetail[] = [];
  try {
    params.done();
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    problems.push(...error.details);
  }
  if (strictGiven === true && !STRICT_FORMATS.includes(format)) {
    problems.push({ path: 'strict', message: `applies only to format=${STRICT_FORMATS.join(' and format=')}` });
  }
  let after: CatalogCursor | undefined;
  try {
    after = decodeCatalogCursor(cursor, search);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    if (problems.length === 0) throw error; // only the cursor is wrong: INVALID_CURSOR
    problems.push(...error.details);
  }
  if (problems.length > 0) throw new ValidationFailed(problems, 'The query parameters are invalid.');
  return { filter, search, format, strict: strictGiven ?? false, after, limit, ...(as !== undefined ? { as } : {}), ...(group !== undefined ? { group } : {}) };
}

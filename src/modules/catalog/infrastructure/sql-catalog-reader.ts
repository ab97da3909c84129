import { likePattern } from '../../access/domain/tool-scope.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { TOOL_COLUMNS, TOOL_FROM, toToolView, type ToolRow } from '../../inventory/infrastructure/tool-row.js';
import { CatalogReader, CatalogView } from '../application/catalog-reader.js';
import type { CatalogFilter, CatalogSearch, CatalogSearchText, CatalogSlice } from '../domain/catalog.js';
import { isUuid } from '../../../shared/uuid.js';


interface Row extends ToolRow {
  rank?: string;
}

/** An MCP annotation hint; absent, or not a boolean: the default the MCP specification gives it. */
const hint = (name: string, fallback: boolean) =>
  `(CASE jsonb_typeof(t.annotations -> '${name}') WHEN 'boolean' THEN (t.annotations ->> '${name}')::boolean ELSE ${fallback} END)`;
const READ_ONLY = hint('readOnlyHint', false);
/** destructiveHint and idempotentHint only mean something for tools that are not read-only. */
const DESTRUCTIVE = `(NOT ${READ_ONLY} AND ${hint('destructiveHint', true)})`;
const IDEMPOTENT = `(${READ_ONLY} OR ${hint('idempotentHint', false)})`;
const OPEN_WORLD = hint('openWorldHint', true);

/**
 * What each view shows of a row, and so what its version must cover (the definition hash covers the
 * definition, the declared hash its key order too).
 */
const VERSIONED: Record<CatalogView, string> = {
  agent: 't.id, t.qualified_name, t.definition_hash, t.declared_hash, t.status, t.enabled, s.name, s.enabled, s.read_only',
  admin:
    't.id, t.qualified_name, t.definition_hash, t.declared_hash, t.status, t.enabled, s.name, s.enabled, s.read_only, ' +
    'extract(epoch FROM t.updated_at), extract(epoch FROM t.last_seen_at)',
};

/** ts_rank weights {D, C, B, A}: names (A) count most, then title (B), then description (C). */
const RANK_WEIGHTS = `'{0.1, 0.2, 0.4, 1.0}'::float4[]`;

class Statement {
  readonly params: unknown[] = [];
  bind(value: unknown): string {
    return `$${this.params.push(value)}`;
  }
}

export class SqlCatalogReader extends CatalogReader {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async version(filter: CatalogFilter, view: CatalogView): Promise<string> {
    const st = new Statement();
    const rows: { n: number; h: string }[] = await this.uow.manager().query(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(concat_ws('|', ${VERSIONED[view]}), ',' ORDER BY t.id), '')) AS h
         ${TOOL_FROM} WHERE ${conditions(filter, st).join(' AND ')}`,
      st.params,
    );
    return `${rows[0]?.n ?? 0}.${rows[0]?.h ?? ''}`;
  }

  async search({ filter, search, after, limit }: CatalogSearch): Promise<CatalogSlice> {
    const st = new Statement();
    const where = conditions(filter, st);
    let sql: string;
    if (!search) {
      if (after) where.push(`t.qualified_name > ${st.bind(after.name)}`);
      sql = `SELECT ${TOOL_COLUMNS} ${TOOL_FROM} WHERE ${where.join(' AND ')} ORDER BY t.qualified_name LIMIT ${st.bind(limit + 1)}`;
    } else {
      sql = rankedSearch(search, where, st, after, limit);
    }
    const rows: Row[] = await this.uow.manager().query(sql, st.params);
    const page = rows.slice(0, limit);
    return {
      entries: page.map(toToolView),
      ranks: search ? page.map((r) => r.rank ?? '0') : undefined,
      hasMore: rows.length > limit,
    };
  }
}

function conditions(filter: CatalogFilter, st: Statement): string[] {
  const where = ['t.retired_at IS NULL', 's.deleted_at IS NULL'];
  if (filter.source) {
    where.push(isUuid(filter.source) ? `(s.id = ${st.bind(filter.source)} OR s.name = ${st.bind(filter.source)})` : `s.name = ${st.bind(filter.source)}`);
  }
  if (filter.status !== 'all') where.push(`t.status = ${st.bind(filter.status)}`);
  if (filter.enabled !== 'all') where.push(`t.enabled = ${st.bind(filter.enabled)}`);
  if (!filter.includeDisabledSources) {
    // The agent view lists what may be called: a read-only source admits only read-only tools, and
    // a tool whose schema Toolplane cannot check is refused.
    where.push('s.enabled', `(NOT s.read_only OR ${READ_ONLY})`, 't.unusable_reason IS NULL');
  }
  const hints: [boolean | undefined, string][] = [
    [filter.readOnly, READ_ONLY],
    [filter.destructive, DESTRUCTIVE],
    [filter.idempotent, IDEMPOTENT],
    [filter.openWorld, OPEN_WORLD],
  ];
  for (const [wanted, expression] of hints) {
    if (wanted !== undefined) where.push(wanted ? expression : `NOT ${expression}`);
  }
  // decideTool's rule: each list present narrows (LIKE escapes with \, the default).
  if (filter.scope?.sources) where.push(`s.name LIKE ANY(${st.bind(filter.scope.sources.map(likePattern))}::text[])`);
  if (filter.scope?.tools) where.push(`t.qualified_name LIKE ANY(${st.bind(filter.scope.tools.map(likePattern))}::text[])`);
  return where;
}

/**
 * Full-text search on the generated `search_vector` (names weighted A, title B, description C):
 * each word of the search matches a word of the tool as a prefix, stemmed (english) or not
 * (simple). A one-word search also matches names by substring, so any part of a name finds the
 * tool. The rank is the words matched plus ts_rank plus a bonus for name matches (exact 2, prefix
 * 1, substring 0.5), rounded to six decimals so it can be compared exactly in the keyset
 * `(rank DESC, qualified_name ASC)`.
 */
function rankedSearch(search: CatalogSearchText, where: string[], st: Statement, after: { name: string; rank?: string } | undefined, limit: number): string {
  // Each word matches as a prefix, stemmed (english) or not (simple). A tool must match every word
  // of a one- or two-word search, and at least half of a longer one (an agent's request has words
  // no tool text holds); it ranks first by how many it matches.
  const termQueries = search.terms.map((term) => {
    const p = st.bind(`'${term}':*`); // letters and digits only: no tsquery syntax to escape
    return `(to_tsquery('simple', ${p}) || to_tsquery('english', ${p}))`;
  });
  const query = termQueries.length === 0 ? 'NULL::tsquery' : termQueries.join(' || ');
  const required = termQueries.length <= 2 ? termQueries.length : Math.ceil(termQueries.length / 2);
  // What the index is asked: every word when every word is required (the index intersects them,
  // which keeps a common word from pulling in half the catalog), else any of them.
  const indexQuery = termQueries.length === 0 ? 'NULL::tsquery' : termQueries.join(required === termQueries.length ? ' && ' : ' || ');
  const matched = termQueries.length === 0 ? '0' : termQueries.map((q) => `(c.search_vector @@ ${q})::int`).join(' + ');
  const text = search.text.toLowerCase();
  const exact = st.bind(text);
  const prefix = st.bind(`${escapeLike(text)}%`);
  // Names hold no blanks, so a search with one cannot be part of a name: the full-text index alone
  // answers it. A one-word search also looks into the names, through their trigram index (the
  // expression is the index's; the word has no blank, so it cannot match across the two names).
  const byName = !/\s/.test(text);
  const nameHit = byName ? `lower(c.name || ' ' || c.qualified_name) LIKE ${st.bind(`%${escapeLike(text)}%`)} ESCAPE '\\'` : 'false';
  // Candidates from the full-text index, plus (one word) from the names' index: an OR of the two
  // in one WHERE would evaluate both on every row. Words matched are counted here, on the rows an
  // index found, and the candidates are only those that qualify.
  const candidate = (condition: string) =>
    `SELECT c.id, m.matched, m.name_hit FROM source_tools c
      CROSS JOIN LATERAL (SELECT ${matched} AS matched, ${nameHit} AS name_hit) m
      WHERE c.retired_at IS NULL AND ${condition} AND (m.matched >= ${required} OR m.name_hit)`;
  const candidates = `${candidate(`c.search_vector @@ (${indexQuery})`)}${byName ? ` UNION ${candidate(nameHit)}` : ''}`;
  const bonus = `CASE WHEN lower(t.name) = ${exact} OR lower(t.qualified_name) = ${exact} THEN 2
                      WHEN t.name ILIKE ${prefix} ESCAPE '\\' THEN 1
                      WHEN c.name_hit THEN 0.5 ELSE 0 END`;
  const keyset = after
    ? `WHERE x.rank < ${st.bind(after.rank ?? '0')}::numeric OR (x.rank = ${st.bind(after.rank ?? '0')}::numeric AND x.qualified_name > ${st.bind(after.name)})`
    : '';
  // The candidates first, whatever the planner's statistics say (right after a bulk registration
  // they are stale, and plans that start from the tools, or from the sources, took seconds); each
  // candidate's tool and source by their keys (OFFSET 0 keeps the planner from turning that into
  // a scan of every tool for each source); then the ranking on narrow rows; the wide columns
  // (schemas) are read for the page alone.
  return `WITH candidates AS MATERIALIZED (${candidates}),
          ranked AS (
            SELECT t.id, t.qualified_name,
                   round((c.matched + coalesce(ts_rank(${RANK_WEIGHTS}, t.search_vector, q.query), 0) + ${bonus})::numeric, 6) AS rank
              FROM candidates c
             CROSS JOIN LATERAL (
                   SELECT t.id, t.qualified_name, t.name, t.search_vector FROM source_tools t JOIN sources s ON s.id = t.source_id
                    WHERE t.id = c.id AND ${where.join(' AND ')} OFFSET 0) t
             CROSS JOIN (SELECT ${query} AS query) q
          ), page AS (
            SELECT * FROM ranked x ${keyset}
             ORDER BY x.rank DESC, x.qualified_name
             LIMIT ${st.bind(limit + 1)}
          )
          SELECT ${TOOL_COLUMNS}, page.rank
            FROM page JOIN source_tools t ON t.id = page.id JOIN sources s ON s.id = t.source_id
           ORDER BY page.rank DESC, page.qualified_name`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

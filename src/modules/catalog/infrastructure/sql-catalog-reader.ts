import type { DataSource, EntityManager } from 'typeorm';
import { isoTime, TOOL_COLUMNS, TOOL_FROM, toCatalogTool, type ToolRow } from '../../inventory/infrastructure/tool-row.js';
import { CatalogReader, type CatalogReading, type ToolTimes } from '../application/catalog-reader.js';
import type { CatalogTool } from '../domain/catalog.js';
import type { CatalogSourceSettings } from '../domain/catalog-snapshot.js';
import { LIVE_TOOL } from './usable-tool-sql.js';

/** Tools are read in pages of this many rows (one transaction): a large catalog does not arrive as one result. */
const PAGE = 1000;

interface SourceRow {
  id: string;
  name: string;
  enabled: boolean;
  read_only: boolean;
  timeout_ms: number;
  max_concurrency: number;
  rate_limit_per_minute: number | null;
  circuit_breaker: { failureThreshold: number; resetTimeoutMs: number };
}

const SOURCE_COLUMNS = 'id, name, enabled, read_only, timeout_ms, max_concurrency, rate_limit_per_minute, circuit_breaker';

/**
 * The catalog as stored, read for a snapshot: every live tool with its source (the admin view's
 * columns) and every live source with the settings calls need. Tools and sources are read in one
 * REPEATABLE READ transaction, so a snapshot never holds a tool without its source or the reverse.
 */
export class SqlCatalogReader extends CatalogReader {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  readAll(): Promise<CatalogReading> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const sources: SourceRow[] = await manager.query(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE deleted_at IS NULL`);
      return { tools: await readTools(manager), sources: sources.map(toSettings) };
    });
  }

  readSource(sourceId: string): Promise<CatalogReading | undefined> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const sources: SourceRow[] = await manager.query(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE id = $1 AND deleted_at IS NULL`, [sourceId]);
      if (sources.length === 0) return undefined;
      return { tools: await readTools(manager, sourceId), sources: sources.map(toSettings) };
    });
  }

  async readTimes(toolIds: readonly string[]): Promise<Map<string, ToolTimes>> {
    if (toolIds.length === 0) return new Map();
    const rows: { id: string; first_seen_at: string; last_seen_at: string; updated_at: string }[] = await this.dataSource.query(
      `SELECT t.id, ${isoTime('t.first_seen_at')} AS first_seen_at, ${isoTime('t.last_seen_at')} AS last_seen_at, ${isoTime('t.updated_at')} AS updated_at
         ${TOOL_FROM} WHERE t.id = ANY($1::uuid[]) AND ${LIVE_TOOL}`,
      [toolIds],
    );
    return new Map(rows.map((row) => [row.id, { firstSeenAt: row.first_seen_at, lastSeenAt: row.last_seen_at, updatedAt: row.updated_at }]));
  }
}

/** The live tools (of one source, or all), in pages by qualified name. */
async function readTools(manager: EntityManager, sourceId?: string): Promise<CatalogTool[]> {
  const tools: CatalogTool[] = [];
  let after: string | undefined;
  for (;;) {
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const where = [LIVE_TOOL];
    if (sourceId !== undefined) where.push(`t.source_id = ${bind(sourceId)}`);
    if (after !== undefined) where.push(`t.qualified_name > ${bind(after)}`);
    const rows: ToolRow[] = await manager.query(`SELECT ${TOOL_COLUMNS} ${TOOL_FROM} WHERE ${where.join(' AND ')} ORDER BY t.qualified_name LIMIT ${PAGE}`, params);
    for (const row of rows) tools.push(toCatalogTool(row));
    if (rows.length < PAGE) return tools;
    after = rows.at(-1)!.qualified_name;
  }
}

function toSettings(row: SourceRow): CatalogSourceSettings {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    readOnly: row.read_only,
    timeoutMs: row.timeout_ms,
    maxConcurrency: row.max_concurrency,
    rateLimitPerMinute: row.rate_limit_per_minute,
    circuitBreaker: row.circuit_breaker,
  };
}

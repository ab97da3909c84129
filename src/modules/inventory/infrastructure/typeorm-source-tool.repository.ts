import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import type { ScannedTool } from '../domain/definition-scan/index.js';
import { SourceTool } from '../domain/source-tool.js';
import { SourceToolRepository } from '../domain/source-tool.repository.js';
import { toolToDomain, toolToRow } from './source-tool.mapper.js';
import { SourceToolOrmEntity } from './source-tool.orm-entity.js';

/** Changed rows (at least, and a tenth of the table) from which a table's statistics are refreshed right away. */
const ANALYZE_AFTER_ROWS = 50;
const ANALYZE_AFTER_SOURCES = 10;

export class TypeormSourceToolRepository extends SourceToolRepository {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(SourceToolOrmEntity);
  }

  async forSource(sourceId: string): Promise<SourceTool[]> {
    const rows = await this.repo
      .createQueryBuilder('t')
      .where('t.source_id = :sourceId AND t.retired_at IS NULL', { sourceId })
      .orderBy('t.name')
      .setLock('pessimistic_write')
      .getMany();
    return rows.map(toolToDomain);
  }

  async takenNames(exceptSourceId: string, names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows: { qualified_name: string }[] = await this.uow
      .manager()
      .query('SELECT qualified_name FROM source_tools WHERE retired_at IS NULL AND source_id <> $1 AND qualified_name = ANY($2::text[])', [exceptSourceId, names]);
    return new Set(rows.map((r) => r.qualified_name));
  }

  async findLive(id: string, options: { lock?: boolean } = {}): Promise<SourceTool | undefined> {
    const qb = this.repo.createQueryBuilder('t').where('t.id = :id AND t.retired_at IS NULL', { id });
    if (options.lock) qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    return row ? toolToDomain(row) : undefined;
  }

  async findLiveByQualifiedName(qualifiedName: string, options: { lock?: boolean } = {}): Promise<SourceTool | undefined> {
    const qb = this.repo.createQueryBuilder('t').where('t.qualified_name = :qualifiedName AND t.retired_at IS NULL', { qualifiedName });
    if (options.lock) qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    return row ? toolToDomain(row) : undefined;
  }

  async saveAll(tools: SourceTool[]): Promise<void> {
    // Upsert in chunks: one statement per chunk keeps a large inventory refresh cheap.
    for (let i = 0; i < tools.length; i += 200) {
      await this.repo.upsert(tools.slice(i, i + 200).map(toolToRow) as QueryDeepPartialEntity<SourceToolOrmEntity>[], { conflictPaths: ['id'] });
    }
    if (tools.length > 0) await this.refreshStatisticsIfStale();
  }

  async markSeen(tools: SourceTool[], now: Date): Promise<void> {
    if (tools.length === 0) return;
    await this.uow.manager().query('UPDATE source_tools SET last_seen_at = $1 WHERE id = ANY($2::uuid[])', [now, tools.map((tool) => tool.snapshot().id)]);
  }

  /**
   * After many rows changed (new sources, big refreshes), refreshes the planner's statistics now
   * rather than at autovacuum's next round, a minute or more away: with counts from before the
   * change the catalog's queries pick plans that scan every tool for each page, or every candidate
   * for each source. Both tables the catalog joins are looked at. The counters cover committed
   * changes, so a burst of registrations analyzes every tenth of a table or so.
   */
  private async refreshStatisticsIfStale(): Promise<void> {
    const rows: { relname: string; stale: boolean }[] = await this.repo.query(
      `SELECT relname, n_mod_since_analyze > greatest(CASE relname WHEN 'sources' THEN ${ANALYZE_AFTER_SOURCES} ELSE ${ANALYZE_AFTER_ROWS} END, n_live_tup / 10) AS stale
         FROM pg_stat_user_tables WHERE relid IN ('source_tools'::regclass, 'sources'::regclass)`,
    );
    for (const { relname, stale } of rows) {
      if (stale) await this.repo.query(relname === 'sources' ? 'ANALYZE sources' : 'ANALYZE source_tools');
    }
  }

  async scanPeers(exceptSourceId: string): Promise<ScannedTool[]> {
    const rows: { source_name: string; name: string; title: string | null; description: string | null; definition: Record<string, unknown> }[] = await this.uow
      .manager()
      .query(
        `SELECT s.name AS source_name, t.name, t.title, t.description, t.definition FROM source_tools t JOIN sources s ON s.id = t.source_id
          WHERE t.retired_at IS NULL AND s.deleted_at IS NULL AND t.status = 'active' AND t.source_id <> $1 ORDER BY s.name, t.name`,
        [exceptSourceId],
      );
    return rows.map((row) => {
      const { inputSchema, outputSchema, annotations } = row.definition as { inputSchema?: unknown; outputSchema?: unknown; annotations?: unknown };
      return {
        sourceName: row.source_name,
        name: row.name,
        ...(row.title !== null ? { title: row.title } : {}),
        ...(row.description !== null ? { description: row.description } : {}),
        ...(inputSchema !== undefined ? { inputSchema: inputSchema as Record<string, unknown> } : {}),
        ...(outputSchema !== undefined ? { outputSchema: outputSchema as Record<string, unknown> } : {}),
        ...(annotations !== undefined ? { annotations: annotations as Record<string, unknown> } : {}),
      };
    });
  }

  async retireAll(sourceId: string, now: Date): Promise<number> {
    const result = await this.repo
      .createQueryBuilder()
      .update(SourceToolOrmEntity)
      .set({ retiredAt: now, updatedAt: now })
      .where('source_id = :sourceId AND retired_at IS NULL', { sourceId })
      .execute();
    return result.affected ?? 0;
  }
}

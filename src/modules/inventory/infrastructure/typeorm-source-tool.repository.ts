import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { SourceTool } from '../domain/source-tool.js';
import { SourceToolRepository } from '../domain/source-tool.repository.js';
import { toolToDomain, toolToRow } from './source-tool.mapper.js';
import { SourceToolOrmEntity } from './source-tool.orm-entity.js';

/** Upserted rows from which the table's statistics are refreshed right away. */
const ANALYZE_AFTER_ROWS = 50;

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

  async takenNames(exceptSourceId: string): Promise<Set<string>> {
    const rows: { qualified_name: string }[] = await this.uow
      .manager()
      .query('SELECT qualified_name FROM source_tools WHERE retired_at IS NULL AND source_id <> $1', [exceptSourceId]);
    return new Set(rows.map((r) => r.qualified_name));
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
    if (tools.length >= ANALYZE_AFTER_ROWS) await this.refreshStatisticsIfStale();
  }

  /**
   * After many rows changed (new sources, big refreshes), refreshes the planner's statistics now
   * rather than at autovacuum's next round, a minute or more away: with counts from before the
   * change the catalog's queries pick plans that scan every tool for each page. The counters
   * cover committed changes, so a burst of registrations analyzes every tenth of the table or so.
   */
  private async refreshStatisticsIfStale(): Promise<void> {
    const rows: { stale: boolean }[] = await this.repo.query(
      `SELECT n_mod_since_analyze > greatest(${ANALYZE_AFTER_ROWS}, n_live_tup / 10) AS stale FROM pg_stat_user_tables WHERE relid = 'source_tools'::regclass`,
    );
    if (rows[0]?.stale) await this.repo.query('ANALYZE source_tools');
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

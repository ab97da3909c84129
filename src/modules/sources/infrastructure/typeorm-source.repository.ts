import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { Conflict } from '../../../shared/domain-error.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { Source } from '../domain/source.js';
import { SourceRepository } from '../domain/source.repository.js';
import { SourceMapper } from './source.mapper.js';
import { SourceOrmEntity } from './source.orm-entity.js';
import { isUuid } from '../../../shared/uuid.js';


export class TypeormSourceRepository extends SourceRepository {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly mapper: SourceMapper,
  ) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(SourceOrmEntity);
  }

  async findLive(idOrName: string, options: { lock?: boolean } = {}): Promise<Source | undefined> {
    const qb = this.repo.createQueryBuilder('s').where('s.deleted_at IS NULL');
    if (isUuid(idOrName)) qb.andWhere('(s.id = :id OR s.name = :name)', { id: idOrName, name: idOrName });
    else qb.andWhere('s.name = :name', { name: idOrName });
    if (options.lock) qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    return row ? this.mapper.toDomain(row) : undefined;
  }

  async listLive(): Promise<Source[]> {
    const rows = await this.repo.createQueryBuilder('s').where('s.deleted_at IS NULL').orderBy('s.name', 'ASC').getMany();
    return rows.map((row) => this.mapper.toDomain(row));
  }

  async nameTaken(name: string): Promise<boolean> {
    return this.repo.createQueryBuilder('s').where('s.name = :name AND s.deleted_at IS NULL', { name }).getExists();
  }

  async insert(source: Source): Promise<void> {
    try {
      await this.repo.insert(this.mapper.toRow(source) as QueryDeepPartialEntity<SourceOrmEntity>);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw new Conflict('SOURCE_NAME_TAKEN', `A source named "${source.name}" already exists.`, [{ path: 'name', message: 'is already taken' }]);
      }
      throw error;
    }
  }

  async save(source: Source): Promise<void> {
    const row = this.mapper.toRow(source);
    const { id, version, ...rest } = row;
    const result = await this.repo
      .createQueryBuilder()
      .update(SourceOrmEntity)
      .set({ ...rest, version: version + 1 } as QueryDeepPartialEntity<SourceOrmEntity>)
      .where('id = :id AND version = :version', { id, version })
      .execute();
    if ((result.affected ?? 0) === 0) {
      throw new Conflict('STALE_VERSION', `Source "${source.name}" was changed concurrently; reload it and try again.`);
    }
    source.markSaved();
  }

  async releaseRefreshLease(id: string): Promise<void> {
    await this.uow.manager().query('UPDATE sources SET refresh_lease_until = NULL WHERE id = $1', [id]);
  }

  async claimDueForRefresh(now: Date, leaseMs: number, limit: number, retryInitialMs: number): Promise<string[]> {
    // Wrapped in a SELECT: TypeORM answers a bare UPDATE … RETURNING as [rows, count].
    const rows: { id: string }[] = await this.uow.manager().query(
      `WITH claimed AS (
       UPDATE sources SET refresh_lease_until = $1::timestamptz + ($2 || ' milliseconds')::interval
        WHERE id IN (
          SELECT id FROM sources
           WHERE deleted_at IS NULL AND enabled AND refresh_interval_seconds > 0
             AND (last_refresh_at IS NULL OR last_refresh_at + make_interval(secs => CASE
                   WHEN consecutive_failures > 0
                   THEN least(refresh_interval_seconds, $4::double precision / 1000 * power(2, least(consecutive_failures - 1, 30)))
                   ELSE refresh_interval_seconds END) <= $1)
             AND (refresh_lease_until IS NULL OR refresh_lease_until < $1)
           ORDER BY last_refresh_at NULLS FIRST
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING id)
       SELECT id FROM claimed`,
      [now, String(leaseMs), limit, retryInitialMs],
    );
    return rows.map((r) => r.id);
  }
}

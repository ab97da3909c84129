import { MoreThan } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { interceptorExists } from '../application/interceptor-errors.js';
import { InterceptorRepository, type Interceptor } from '../domain/interceptor.js';
import { settingsInOrder } from '../domain/interceptor-spec.js';
import { InterceptorOrmEntity } from './interceptor.orm-entity.js';

/** Interceptors in `interceptors`, read and written in the current unit of work. */
export class TypeormInterceptorRepository extends InterceptorRepository {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(InterceptorOrmEntity);
  }

  async findByName(name: string, options: { lock?: boolean } = {}): Promise<Interceptor | undefined> {
    const query = this.repo.createQueryBuilder('i').where('i.name = :name', { name });
    if (options.lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? toInterceptor(row) : undefined;
  }

  async insert(interceptor: Interceptor): Promise<void> {
    // Two creates of one name at once: the second finds no row to lock, and is refused here.
    const result = await this.repo.createQueryBuilder().insert().values(toRow(interceptor) as QueryDeepPartialEntity<InterceptorOrmEntity>).orIgnore().returning('id').execute();
    if ((result.raw as unknown[]).length === 0) throw interceptorExists(interceptor.name);
  }

  async update(interceptor: Interceptor): Promise<void> {
    const { id, ...row } = toRow(interceptor);
    await this.repo.update({ id }, row as QueryDeepPartialEntity<InterceptorOrmEntity>);
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  async list(after: string | undefined, limit: number): Promise<Interceptor[]> {
    const rows = await this.repo.find({ where: after === undefined ? {} : { name: MoreThan(after) }, order: { name: 'ASC' }, take: limit });
    return rows.map(toInterceptor);
  }

  async all(): Promise<Interceptor[]> {
    const rows = await this.repo.find({ order: { name: 'ASC' } });
    return rows.map(toInterceptor);
  }
}

function toRow(interceptor: Interceptor): InterceptorOrmEntity {
  return Object.assign(new InterceptorOrmEntity(), {
    id: interceptor.id,
    name: interceptor.name,
    kind: interceptor.kind,
    phase: interceptor.phase,
    order: interceptor.order,
    scope: interceptor.scope,
    settings: interceptor.settings as unknown as Record<string, unknown>,
    onError: interceptor.onError,
    timeoutMs: interceptor.timeoutMs,
    enabled: interceptor.enabled,
    description: interceptor.description,
    version: interceptor.version,
    createdAt: interceptor.createdAt,
    updatedAt: interceptor.updatedAt,
    createdBy: interceptor.createdBy,
    updatedBy: interceptor.updatedBy,
  });
}

function toInterceptor(row: InterceptorOrmEntity): Interceptor {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    phase: row.phase,
    order: row.order,
    scope: row.scope,
    onError: row.onError,
    timeoutMs: row.timeoutMs,
    enabled: row.enabled,
    settings: settingsInOrder(row.kind, row.settings),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    version: row.version,
  } as Interceptor;
}

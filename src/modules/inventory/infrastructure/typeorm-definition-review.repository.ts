import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { DefinitionReview } from '../domain/pinning/definition-review.js';
import { DefinitionReviewRepository } from '../domain/pinning/definition-review.repository.js';
import { DefinitionReviewOrmEntity } from './definition-review.orm-entity.js';

export class TypeormDefinitionReviewRepository extends DefinitionReviewRepository {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(DefinitionReviewOrmEntity);
  }

  async find(id: string, options: { lock?: boolean } = {}): Promise<DefinitionReview | undefined> {
    const qb = this.repo.createQueryBuilder('r').where('r.id = :id', { id });
    if (options.lock) qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    return row ? DefinitionReview.restore({ ...row }) : undefined;
  }

  async pendingFor(toolIds: readonly string[]): Promise<DefinitionReview[]> {
    if (toolIds.length === 0) return [];
    const rows = await this.repo
      .createQueryBuilder('r')
      .where(`r.tool_id = ANY(:toolIds::uuid[]) AND r.state = 'pending'`, { toolIds })
      .setLock('pessimistic_write')
      .getMany();
    return rows.map((row) => DefinitionReview.restore({ ...row }));
  }

  async saveAll(reviews: readonly DefinitionReview[]): Promise<void> {
    for (let i = 0; i < reviews.length; i += 200) {
      const rows = reviews.slice(i, i + 200).map((review) => Object.assign(new DefinitionReviewOrmEntity(), review.snapshot()));
      await this.repo.upsert(rows as QueryDeepPartialEntity<DefinitionReviewOrmEntity>[], { conflictPaths: ['id'] });
    }
  }
}

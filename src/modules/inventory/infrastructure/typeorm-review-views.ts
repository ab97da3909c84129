import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { isUuid } from '../../../shared/uuid.js';
import { ReviewViews, type ReviewFilter, type ReviewKey } from '../application/review-views.js';
import type { DefinitionReviewProps } from '../domain/pinning/definition-review.js';
import { DefinitionReviewOrmEntity } from './definition-review.orm-entity.js';

/** The reviews read from `definition_reviews`, newest first. */
export class TypeormReviewViews extends ReviewViews {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  private get repo() {
    return this.uow.manager().getRepository(DefinitionReviewOrmEntity);
  }

  async list(filter: ReviewFilter, after: ReviewKey | undefined, limit: number): Promise<DefinitionReviewProps[]> {
    const qb = this.repo.createQueryBuilder('r');
    if (filter.state) qb.andWhere('r.state = :state', { state: filter.state });
    if (filter.source) {
      if (isUuid(filter.source)) qb.andWhere('r.source_id = :source', { source: filter.source });
      else qb.andWhere('r.source_name = :source', { source: filter.source });
    }
    if (after) qb.andWhere('(r.created_at, r.id) < (:at, :id)', { at: new Date(after.at), id: after.id });
    const rows = await qb.orderBy('r.created_at', 'DESC').addOrderBy('r.id', 'DESC').take(limit).getMany();
    return rows.map((row) => ({ ...row }));
  }

  async get(id: string): Promise<DefinitionReviewProps | undefined> {
    const row = await this.repo.findOneBy({ id });
    return row ? { ...row } : undefined;
  }
}

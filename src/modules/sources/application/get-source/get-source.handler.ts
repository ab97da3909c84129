import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { CircuitBreakers } from '../circuit-breakers.js';
import { sourceNotFound } from '../source-errors.js';
import { SourceView, SourceViews } from '../source-view.js';
import { RefreshCoordinator } from '../refresh-inventory/refresh-coordinator.js';
import { withLiveState } from '../with-live-state.js';
import { GetSourceQuery } from './get-source.query.js';

@QueryHandler(GetSourceQuery)
export class GetSourceHandler implements IQueryHandler<GetSourceQuery, SourceView> {
  constructor(
    @Inject(SourceViews) private readonly views: SourceViews,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(RefreshCoordinator) private readonly refreshes: RefreshCoordinator,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ idOrName }: GetSourceQuery): Promise<SourceView> {
    const view = await this.views.get(idOrName);
    if (!view) throw sourceNotFound(idOrName);
    return withLiveState(view, this.circuits, this.refreshes, this.clock.now().getTime());
  }
}

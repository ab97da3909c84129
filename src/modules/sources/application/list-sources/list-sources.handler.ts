import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { CircuitBreakers } from '../circuit-breakers.js';
import { SourcePage, SourceViews } from '../source-view.js';
import { RefreshCoordinator } from '../refresh-inventory/refresh-coordinator.js';
import { withLiveState } from '../with-live-state.js';
import { ListSourcesQuery } from './list-sources.query.js';

@QueryHandler(ListSourcesQuery)
export class ListSourcesHandler implements IQueryHandler<ListSourcesQuery, SourcePage> {
  constructor(
    @Inject(SourceViews) private readonly views: SourceViews,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(RefreshCoordinator) private readonly refreshes: RefreshCoordinator,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ filter, cursor, limit }: ListSourcesQuery): Promise<SourcePage> {
    const page = await this.views.list(filter, cursor, limit);
    const now = this.clock.now().getTime();
    return { ...page, items: page.items.map((view) => withLiveState(view, this.circuits, this.refreshes, now)) };
  }
}

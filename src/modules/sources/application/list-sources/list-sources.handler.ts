import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SourcePage, SourceViews } from '../source-view.js';
import { ListSourcesQuery } from './list-sources.query.js';

@QueryHandler(ListSourcesQuery)
export class ListSourcesHandler implements IQueryHandler<ListSourcesQuery, SourcePage> {
  constructor(@Inject(SourceViews) private readonly views: SourceViews) {}

  execute({ filter, cursor, limit }: ListSourcesQuery): Promise<SourcePage> {
    return this.views.list(filter, cursor, limit);
  }
}

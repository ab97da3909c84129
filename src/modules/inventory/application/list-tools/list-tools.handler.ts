import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ToolPage, ToolViews } from '../tool-view.js';
import { ListToolsQuery } from './list-tools.query.js';

@QueryHandler(ListToolsQuery)
export class ListToolsHandler implements IQueryHandler<ListToolsQuery, ToolPage> {
  constructor(@Inject(ToolViews) private readonly views: ToolViews) {}

  execute({ filter, cursor, limit }: ListToolsQuery): Promise<ToolPage> {
    return this.views.list(filter, cursor, limit);
  }
}

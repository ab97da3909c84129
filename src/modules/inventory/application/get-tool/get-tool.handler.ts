import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toolNotFound } from '../tool-errors.js';
import { ToolView, ToolViews } from '../tool-view.js';
import { GetToolQuery } from './get-tool.query.js';

@QueryHandler(GetToolQuery)
export class GetToolHandler implements IQueryHandler<GetToolQuery, ToolView> {
  constructor(@Inject(ToolViews) private readonly views: ToolViews) {}

  async execute({ qualifiedName }: GetToolQuery): Promise<ToolView> {
    const view = await this.views.get(qualifiedName);
    if (!view) throw toolNotFound(qualifiedName);
    return view;
  }
}

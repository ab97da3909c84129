import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toolNotFound } from '../tool-errors.js';
import type { CatalogTool } from '../../domain/tool-definition.js';
import { ToolViews } from '../tool-views.js';
import { GetToolQuery } from './get-tool.query.js';

@QueryHandler(GetToolQuery)
export class GetToolHandler implements IQueryHandler<GetToolQuery, CatalogTool> {
  constructor(@Inject(ToolViews) private readonly views: ToolViews) {}

  async execute({ qualifiedName }: GetToolQuery): Promise<CatalogTool> {
    const view = await this.views.get(qualifiedName);
    if (!view) throw toolNotFound(qualifiedName);
    return view;
  }
}

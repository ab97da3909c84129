import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { sourceNotFound } from '../source-errors.js';
import { SourceView, SourceViews } from '../source-view.js';
import { GetSourceQuery } from './get-source.query.js';

@QueryHandler(GetSourceQuery)
export class GetSourceHandler implements IQueryHandler<GetSourceQuery, SourceView> {
  constructor(@Inject(SourceViews) private readonly views: SourceViews) {}

  async execute({ idOrName }: GetSourceQuery): Promise<SourceView> {
    const view = await this.views.get(idOrName);
    if (!view) throw sourceNotFound(idOrName);
    return view;
  }
}

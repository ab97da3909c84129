import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { InterceptorRepository } from '../../domain/interceptor.js';
import { viewOf } from '../interceptor-view.js';
import { ListInterceptorsQuery, type InterceptorPage } from './list-interceptors.query.js';

@QueryHandler(ListInterceptorsQuery)
export class ListInterceptorsHandler implements IQueryHandler<ListInterceptorsQuery, InterceptorPage> {
  constructor(@Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository) {}

  async execute({ cursor, limit }: ListInterceptorsQuery): Promise<InterceptorPage> {
    const after = decodeCursor<{ n: string }>(cursor, ['n']);
    const rows = await this.interceptors.list(after?.n, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(viewOf), nextCursor: rows.length > limit && last ? encodeCursor({ n: last.name }) : null };
  }
}

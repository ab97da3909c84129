import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { pageByName } from '../../../../shared/http/cursor.js';
import { InterceptorRepository } from '../../domain/interceptor.js';
import { viewOf } from '../interceptor-view.js';
import { ListInterceptorsQuery, type InterceptorPage } from './list-interceptors.query.js';

@QueryHandler(ListInterceptorsQuery)
export class ListInterceptorsHandler implements IQueryHandler<ListInterceptorsQuery, InterceptorPage> {
  constructor(@Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository) {}

  execute({ cursor, limit }: ListInterceptorsQuery): Promise<InterceptorPage> {
    return pageByName(cursor, limit, (after, count) => this.interceptors.list(after, count), viewOf);
  }
}

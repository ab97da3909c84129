import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InterceptorRepository } from '../../domain/interceptor.js';
import { interceptorNotFound } from '../interceptor-errors.js';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { GetInterceptorQuery } from './get-interceptor.query.js';

@QueryHandler(GetInterceptorQuery)
export class GetInterceptorHandler implements IQueryHandler<GetInterceptorQuery, InterceptorView> {
  constructor(@Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository) {}

  async execute({ name }: GetInterceptorQuery): Promise<InterceptorView> {
    const interceptor = await this.interceptors.findByName(name);
    if (!interceptor) throw interceptorNotFound(name);
    return viewOf(interceptor);
  }
}

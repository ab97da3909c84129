import { Query } from '@nestjs/cqrs';
import type { Page } from '../../../../shared/page.js';
import type { InterceptorView } from '../interceptor-view.js';

export type InterceptorPage = Page<InterceptorView>;

/** The interceptors by name, a page at a time. */
export class ListInterceptorsQuery extends Query<InterceptorPage> {
  constructor(
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}

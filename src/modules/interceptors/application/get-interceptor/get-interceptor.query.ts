import { Query } from '@nestjs/cqrs';
import type { InterceptorView } from '../interceptor-view.js';

export class GetInterceptorQuery extends Query<InterceptorView> {
  constructor(readonly name: string) {
    super();
  }
}

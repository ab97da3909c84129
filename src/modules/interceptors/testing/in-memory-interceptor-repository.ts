import { InMemoryNamedRepository } from '../../../shared/testing/in-memory-named-repository.js';
import type { Interceptor, InterceptorRepository } from '../domain/interceptor.js';

/** Interceptors held in memory, by name (`interceptors`); counts reads of the whole set. */
export class InMemoryInterceptorRepository extends InMemoryNamedRepository<Interceptor> implements InterceptorRepository {
  readonly interceptors = this.byName;
}

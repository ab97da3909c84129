import { InterceptorRepository, type Interceptor } from '../domain/interceptor.js';

/** Interceptors held in memory, by name; counts reads of the whole set. */
export class InMemoryInterceptorRepository extends InterceptorRepository {
  readonly interceptors = new Map<string, Interceptor>();
  reads = 0;

  constructor(interceptors: Interceptor[] = []) {
    super();
    for (const interceptor of interceptors) this.interceptors.set(interceptor.name, interceptor);
  }

  async findByName(name: string): Promise<Interceptor | undefined> {
    const interceptor = this.interceptors.get(name);
    return interceptor && structuredClone(interceptor);
  }

  async insert(interceptor: Interceptor): Promise<void> {
    this.interceptors.set(interceptor.name, structuredClone(interceptor));
  }

  async update(interceptor: Interceptor): Promise<void> {
    this.interceptors.set(interceptor.name, structuredClone(interceptor));
  }

  async delete(id: string): Promise<void> {
    for (const [name, interceptor] of this.interceptors) if (interceptor.id === id) this.interceptors.delete(name);
  }

  async list(after: string | undefined, limit: number): Promise<Interceptor[]> {
    return [...this.interceptors.values()]
      .filter((interceptor) => after === undefined || interceptor.name > after)
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .slice(0, limit)
      .map((interceptor) => structuredClone(interceptor));
  }

  async all(): Promise<Interceptor[]> {
    this.reads++;
    return this.list(undefined, Number.MAX_SAFE_INTEGER);
  }
}

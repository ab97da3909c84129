import { InterceptorsInForce, type InterceptorSpec } from '../domain/interceptor.js';

/** Interceptors in force held as given; `set` replaces them and moves the version, as a change does. */
export class FixedInterceptors extends InterceptorsInForce {
  version = 1;
  /** How often the chain read them. */
  reads = 0;
  private specs: readonly InterceptorSpec[];

  constructor(specs: readonly InterceptorSpec[] = []) {
    super();
    this.specs = specs;
  }

  all(): readonly InterceptorSpec[] {
    this.reads += 1;
    return this.specs;
  }

  set(specs: readonly InterceptorSpec[]): void {
    this.specs = specs;
    this.version += 1;
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '../unit-of-work.js';

/** The transaction of the current async context, so repositories need no manager argument. */
export class TypeormUnitOfWork extends UnitOfWork {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }

  manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }
}

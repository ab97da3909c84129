import type { DataSource, EntityManager } from 'typeorm';
import { HeldStorage } from '../held-storage.js';
import { UnitOfWork } from '../unit-of-work.js';

/** The transaction of the current async context, so repositories need no manager argument (held only while a transaction runs). */
export class TypeormUnitOfWork extends UnitOfWork {
  private readonly current = new HeldStorage<EntityManager>(0);

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.runAsync(manager, work));
  }

  manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }
}

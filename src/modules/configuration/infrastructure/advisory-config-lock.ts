import type { DataSource } from 'typeorm';
import { ConfigApplyLock } from '../domain/cluster-lock.js';

/**
 * A session advisory lock on a connection of its own: replicas starting together with the same
 * file, or two operators applying at once, take turns instead of racing to create one source.
 */
export class AdvisoryConfigLock extends ConfigApplyLock {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', ['toolplane:config-apply']);
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', ['toolplane:config-apply']).catch(() => undefined);
      await runner.release();
    }
  }
}

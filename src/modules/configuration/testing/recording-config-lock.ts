import { ConfigApplyLock } from '../domain/cluster-lock.js';

/** Runs the work directly, telling a spec whether it runs under the lock now and how often it was taken. */
export class RecordingConfigLock extends ConfigApplyLock {
  held = false;
  taken = 0;

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.taken += 1;
    this.held = true;
    try {
      return await work();
    } finally {
      this.held = false;
    }
  }
}

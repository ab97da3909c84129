import { UnitOfWork } from '../unit-of-work.js';

/** Runs the work directly, telling a spec how many units ran and whether one is running now. */
export class DirectUnitOfWork extends UnitOfWork {
  runs = 0;
  private depth = 0;

  get active(): boolean {
    return this.depth > 0;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.runs += 1;
    this.depth += 1;
    try {
      return await work();
    } finally {
      this.depth -= 1;
    }
  }
}

import { IdGenerator } from '../unit-of-work.js';

/** Ids a spec can predict: `id-1`, `id-2`, … (or another prefix). */
export class SequentialIds extends IdGenerator {
  private issued = 0;

  constructor(private readonly prefix = 'id-') {
    super();
  }

  next(): string {
    this.issued += 1;
    return `${this.prefix}${this.issued}`;
  }
}

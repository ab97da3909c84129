import { Clock } from '../../../shared/unit-of-work.js';

/** A Clock that moves only when told. */
export class ManualClock extends Clock {
  constructor(public at = Date.UTC(2026, 0, 1)) {
    super();
  }

  now(): Date {
    return new Date(this.at);
  }

  advance(ms: number): void {
    this.at += ms;
  }
}

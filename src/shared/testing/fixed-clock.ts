import { Clock } from '../unit-of-work.js';

/** A clock that stands still until a spec moves it. */
export class FixedClock extends Clock {
  private at: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    super();
    this.at = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  advance(ms: number): void {
    this.at += ms;
  }
}

import { Injectable } from '@nestjs/common';
import { Bulkhead } from '../domain/bulkhead.js';

/** Waiting room per source: this many calls beyond maxConcurrency may queue. */
export const QUEUE_FACTOR = 4;
export const MIN_QUEUE = 16;

@Injectable()
export class Bulkheads {
  private readonly bulkheads = new Map<string, Bulkhead>();

  forSource(sourceId: string, maxConcurrency: number): Bulkhead {
    const queue = Math.max(MIN_QUEUE, maxConcurrency * QUEUE_FACTOR);
    let bulkhead = this.bulkheads.get(sourceId);
    if (!bulkhead) {
      bulkhead = new Bulkhead(maxConcurrency, queue);
      this.bulkheads.set(sourceId, bulkhead);
    } else {
      bulkhead.resize(maxConcurrency, queue);
    }
    return bulkhead;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { WorkMetrics } from '../../../shared/work-metrics.js';
import { Bulkhead } from '../domain/bulkhead.js';

/**
 * One bulkhead per source: `maxConcurrency` calls run, up to TOOLPLANE_SOURCE_QUEUE_LIMIT more
 * wait (each at most until its own deadline), the rest are refused at once.
 */
@Injectable()
export class Bulkheads {
  private readonly bulkheads = new Map<string, Bulkhead>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WorkMetrics) metrics: WorkMetrics,
  ) {
    metrics.perSource('in_flight', () => new Map([...this.bulkheads].map(([id, bulkhead]) => [id, bulkhead.inFlight])));
    metrics.perSource('queued', () => new Map([...this.bulkheads].map(([id, bulkhead]) => [id, bulkhead.queued])));
  }

  forSource(sourceId: string, maxConcurrency: number): Bulkhead {
    const queue = this.config.sourceQueueLimit;
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

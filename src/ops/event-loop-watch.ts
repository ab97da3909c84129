import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** How often the longest delay is looked at (and the measurement restarted). */
const WINDOW_MS = 1000;
/** The sampling timer's interval: each sample is the time between two of its ticks, so a hold is a sample less this. */
const RESOLUTION_MS = 10;

/**
 * Watches the event loop: when it was held longer than TOOLPLANE_LOOP_STALL_WARN_MS within a
 * second (a synchronous task, or a garbage collection), says so once for that second, with the
 * longest delay measured. Every request waits while the loop is held, so this is what an
 * operator sees first of a stall, whatever caused it.
 */
@Injectable()
export class EventLoopWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('event-loop');
  private histogram?: IntervalHistogram;
  private timer?: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    this.histogram = histogram;
    this.timer = setInterval(() => {
      const longestMs = Math.max(0, histogram.max / 1e6 - RESOLUTION_MS);
      histogram.reset();
      if (longestMs > this.config.loopStallWarnMs) this.logger.warn(`the event loop was held for ${Math.round(longestMs)} ms`);
    }, WINDOW_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.histogram?.disable();
  }
}

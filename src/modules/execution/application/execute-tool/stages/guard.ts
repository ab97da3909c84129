import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../../config/app-config.js';
import { Clock } from '../../../../../shared/unit-of-work.js';
import { CircuitBreakers } from '../../../../sources/application/circuit-breakers.js';
import { BulkheadFull } from '../../../domain/bulkhead.js';
import { Bulkheads } from '../../bulkheads.js';
import { CallSignal } from '../../call-signal.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
import { SourcePass } from '../source-pass.js';
import type { StageVerdict } from './call-stage.js';

/**
 * Whether the source can take the call now: its circuit is not open (CIRCUIT_OPEN, with when to try
 * again) and its bulkhead has a slot, at once or — queued — before the call's deadline
 * (CONCURRENCY_LIMIT when the queue is full; TIMEOUT, or CANCELLED when the caller left, while
 * waiting). The call's deadline starts here: min(its timeoutMs ?? the source's, the process's
 * maximum). Sets `call.pass`, which the call holds until it ends.
 */
@Injectable()
export class GuardStage {
  constructor(
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(Bulkheads) private readonly bulkheads: Bulkheads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async run(call: Call): Promise<StageVerdict> {
    const { source } = call.route!;
    const timeoutMs = Math.min(call.input.timeoutMs ?? source.timeoutMs, this.config.maxCallTimeoutMs);
    const now = this.clock.now().getTime();
    const breaker = this.circuits.forSource(source.id, source.circuitBreaker);
    const admission = breaker.admit(now);
    if (!admission.admitted) return refuse('circuit_open', 'CIRCUIT_OPEN', `Source "${source.name}" is failing; calls are paused.`, true, undefined, { retryAfterMs: admission.retryAfterMs });
    const callSignal = new CallSignal(timeoutMs, call.command.signal);
    try {
      const release = await this.bulkheads.forSource(source.id, source.maxConcurrency).acquire(callSignal.signal);
      call.pass = new SourcePass(breaker, admission.trial, release, callSignal, timeoutMs, now + timeoutMs);
      return undefined;
    } catch (error) {
      breaker.onNeutral(admission.trial);
      callSignal.dispose();
      if (error instanceof BulkheadFull) {
        return refuse('rejected', 'CONCURRENCY_LIMIT', `Source "${source.name}" is at its concurrency limit: ${error.message}.`, true, undefined, { retryAfterMs: 1000 });
      }
      return call.command.signal?.aborted
        ? refuse('cancelled', 'CANCELLED', 'The caller went away while the call waited for a slot.')
        : refuse('timeout', 'TIMEOUT', `No slot freed within ${timeoutMs} ms.`, true);
    }
  }
}

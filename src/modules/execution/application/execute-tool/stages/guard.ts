import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../../config/app-config.js';
import type { CallerSignal } from '../../../../../shared/caller-signal.js';
import { Clock } from '../../../../../shared/unit-of-work.js';
import { CircuitBreakers } from '../../../../sources/application/circuit-breakers.js';
import type { CircuitBreaker } from '../../../../sources/domain/circuit-breaker.js';
import { BulkheadFull } from '../../../domain/bulkhead.js';
import { Bulkheads } from '../../bulkheads.js';
import { CallSignal } from '../../call-signal.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
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

/**
 * What the guard let through: the circuit's admission (a trial, when half-open), a bulkhead slot,
 * and the call's deadline and signal (aborts at the deadline or when the caller leaves). The call
 * tells the circuit how the upstream did once; a pass ended without a verdict (a refusal after the
 * guard, an unexpected error) counts as neutral, so a half-open circuit's trial is never kept.
 */
export class SourcePass {
  private settled = false;

  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly trial: boolean,
    private readonly releaseSlot: () => void,
    private readonly callSignal: CallSignal,
    readonly timeoutMs: number,
    /** Epoch ms at which the call's time is up. */
    readonly deadline: number,
  ) {}

  get signal(): CallerSignal {
    return this.callSignal.signal;
  }

  /** The upstream answered (whatever the tool's own result). */
  succeeded(): void {
    if (this.settle()) this.breaker.onSuccess(this.trial);
  }

  /** The upstream failed or did not answer in time. */
  failed(now: number): void {
    if (this.settle()) this.breaker.onFailure(this.trial, now);
  }

  /** The call ended without telling anything about the upstream. */
  neutral(): void {
    if (this.settle()) this.breaker.onNeutral(this.trial);
  }

  /** Frees the slot and the deadline's timer; neutral unless a verdict was given. */
  release(): void {
    this.neutral();
    this.releaseSlot();
    this.callSignal.dispose();
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    return true;
  }
}

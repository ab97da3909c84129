import type { CallerSignal } from '../../../../shared/caller-signal.js';
import type { CircuitBreaker } from '../../../sources/domain/circuit-breaker.js';
import type { CallSignal } from '../call-signal.js';

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

  /** Stops the call's time while it waits for its caller's input, for at most `maxMs` (see CallSignal.hold); answers the release. */
  hold(maxMs: number): () => void {
    return this.callSignal.hold(maxMs);
  }

  /** Whether the call ended because a wait for input outlasted its bound. */
  get expiredWhileHeld(): boolean {
    return this.callSignal.expiredWhileHeld;
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

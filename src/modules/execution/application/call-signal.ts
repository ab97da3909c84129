/**
 * Aborts when the call's time is up or its caller goes away. A plain timer and listener, cleared
 * as soon as the call ends: AbortSignal.timeout() would keep a timer per call alive for the whole
 * timeout, and AbortSignal.any() costs more than the call's own bookkeeping. The signal is a
 * CallerDeparture: the paths that only listen never pay for an AbortController (see abortSignalOf).
 */
import { CallerDeparture, type CallerSignal } from '../../../shared/caller-signal.js';

export class CallSignal {
  private readonly departure = new CallerDeparture();
  private timer: NodeJS.Timeout | undefined;
  private expiresAt: number;
  /** Holds under way (see hold), the time the call had left when the first began, and its bound. */
  private holds = 0;
  private leftMs = 0;
  private holdTimer: NodeJS.Timeout | undefined;
  private heldTooLong = false;
  private readonly onCallerAbort = () => this.departure.abort(this.caller?.reason);

  constructor(
    timeoutMs: number,
    private readonly caller?: CallerSignal,
  ) {
    this.expiresAt = Date.now() + timeoutMs;
    this.timer = this.expireIn(timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): CallerSignal {
    return this.departure;
  }

  /** Whether the call ended because a hold outlasted its bound (not the call's own time). */
  get expiredWhileHeld(): boolean {
    return this.heldTooLong;
  }

  /**
   * Stops the call's time while it legitimately waits (a task waiting for its caller's input), for
   * at most `maxMs`: past that the call times out. Releasing the last hold starts the time again
   * with what was left when the first began. Holds nest; releasing twice is harmless.
   */
  hold(maxMs: number): () => void {
    if (this.holds++ === 0 && !this.departure.aborted) {
      clearTimeout(this.timer);
      this.leftMs = Math.max(1, this.expiresAt - Date.now());
      this.holdTimer = setTimeout(() => {
        this.heldTooLong = true;
        this.departure.abort(new DOMException('The call waited too long for input', 'TimeoutError'));
      }, maxMs);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0 || this.departure.aborted) return;
      clearTimeout(this.holdTimer);
      this.expiresAt = Date.now() + this.leftMs;
      this.timer = this.expireIn(this.leftMs);
    };
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.holdTimer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private expireIn(ms: number): NodeJS.Timeout {
    return setTimeout(() => this.departure.abort(new DOMException('The call timed out', 'TimeoutError')), ms);
  }
}

/**
 * Aborts when the call's time is up or its caller goes away. A plain timer and listener, cleared
 * as soon as the call ends: AbortSignal.timeout() would keep a timer per call alive for the whole
 * timeout, and AbortSignal.any() costs more than the call's own bookkeeping. The signal is a
 * CallerDeparture: the paths that only listen never pay for an AbortController (see abortSignalOf).
 */
import { CallerDeparture, type CallerSignal } from '../../../shared/caller-signal.js';

export class CallSignal {
  private readonly departure = new CallerDeparture();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = () => this.departure.abort(this.caller?.reason);

  constructor(
    timeoutMs: number,
    private readonly caller?: CallerSignal,
  ) {
    this.timer = setTimeout(() => this.departure.abort(new DOMException('The call timed out', 'TimeoutError')), timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): CallerSignal {
    return this.departure;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

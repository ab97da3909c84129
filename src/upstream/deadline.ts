import { abortSignalOf, type CallerSignal } from '../shared/caller-signal.js';
import { UpstreamError } from './upstream-error.js';

/**
 * One time budget shared by every step of an operation (connect, each page, each call),
 * combined with the caller's signal.
 */
export class Deadline {
  /** What the steps listen to; an AbortSignal only where an API needs one (requestOptions). */
  readonly signal: CallerSignal;
  private readonly expiresAt: number;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly detachParent: () => void;

  /**
   * `parentTimesOut`: the parent signal itself aborts with a `TimeoutError` once `timeoutMs` has
   * passed (an execution's call signal), so the deadline follows it instead of arming a timer and a
   * signal of its own (an AbortController costs microseconds on every call).
   */
  constructor(
    readonly timeoutMs: number,
    readonly parent?: CallerSignal,
    private readonly parentTimesOut = false,
  ) {
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
    this.expiresAt = Date.now() + timeoutMs;
    if (parent && parentTimesOut) {
      this.signal = parent;
      this.detachParent = () => undefined;
      return;
    }
    const controller = new AbortController();
    this.signal = controller.signal;
    this.timer = setTimeout(() => controller.abort(new DeadlineExpired()), timeoutMs);
    const onParentAbort = () => controller.abort(parent?.reason);
    if (parent?.aborted) onParentAbort();
    else parent?.addEventListener('abort', onParentAbort, { once: true });
    this.detachParent = () => parent?.removeEventListener('abort', onParentAbort);
  }

  get expired(): boolean {
    return this.signal.aborted && this.isExpiry(this.signal.reason);
  }

  get cancelled(): boolean {
    return this.signal.aborted && !this.isExpiry(this.signal.reason);
  }

  remainingMs(): number {
    return Math.max(1, this.expiresAt - Date.now());
  }

  /** Options for an SDK call: the remaining budget and the combined signal. */
  requestOptions(): { timeout: number; signal: AbortSignal } {
    return { timeout: this.remainingMs(), signal: abortSignalOf(this.signal) };
  }

  /**
   * Runs `work`, rejecting as soon as the budget runs out or the caller aborts, with an
   * error naming `phase` (e.g. "timed out after 5000 ms connecting"). `work` is not
   * interrupted: the caller cleans up what it started.
   */
  async run<T>(phase: string | (() => string), work: () => Promise<T>): Promise<T> {
    const phaseNow = () => (typeof phase === 'string' ? phase : phase());
    this.throwIfStopped(phaseNow());
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => reject(this.stopError(phaseNow()));
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work(), stopped]);
    } finally {
      if (onAbort) this.signal.removeEventListener('abort', onAbort);
    }
  }

  throwIfStopped(phase: string): void {
    if (this.signal.aborted) throw this.stopError(phase);
  }

  stopError(phase: string): UpstreamError {
    if (!this.cancelled) return new UpstreamError('timeout', `timed out after ${this.timeoutMs} ms ${phase}`);
    const reason: unknown = this.signal.reason;
    const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
    return new UpstreamError('aborted', `cancelled while ${phase}${why}`);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.detachParent();
  }

  private isExpiry(reason: unknown): boolean {
    return reason instanceof DeadlineExpired || (this.parentTimesOut && reason instanceof DOMException && reason.name === 'TimeoutError');
  }
}

class DeadlineExpired extends Error {
  constructor() {
    super('deadline expired');
    this.name = 'DeadlineExpired';
  }
}

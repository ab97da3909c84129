/**
 * What a call needs to know of its caller going away: whether it has, why, and a way to hear it.
 * An AbortSignal is one; CallerDeparture is a cheaper one, for the edges and the call itself
 * (abortSignalOf gives an AbortSignal where an API needs one).
 */
export interface CallerSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A CallerSignal that is not an EventTarget. On Node 20 every AbortController costs a few
 * microseconds to create (its signal's prototype is set after construction) and its first listener
 * more; a call passes through two or three edges that each only need "the caller left".
 * Listeners are called once, in the order they were added, when `abort` is first called.
 */
export class CallerDeparture implements CallerSignal {
  private listeners: (() => void)[] = [];
  private abortReason: unknown;
  private left = false;
  private bridge?: AbortController;

  get aborted(): boolean {
    return this.left;
  }

  get reason(): unknown {
    return this.abortReason;
  }

  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.left) return;
    this.left = true;
    this.abortReason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: the others still hear it, the error surfaces as uncaught.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.left && !this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  /** An AbortSignal that follows this one (with the same reason), for an API that needs a real one; made on first use. */
  asAbortSignal(): AbortSignal {
    if (!this.bridge) {
      const bridge = new AbortController();
      this.bridge = bridge;
      if (this.left) bridge.abort(this.abortReason);
      else this.addEventListener('abort', () => bridge.abort(this.abortReason));
    }
    return this.bridge.signal;
  }
}

/** `signal` as an AbortSignal: itself when it is one, else one that follows it. */
export function abortSignalOf(signal: CallerSignal): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  if (signal instanceof CallerDeparture) return signal.asAbortSignal();
  const bridge = new AbortController();
  if (signal.aborted) bridge.abort(signal.reason);
  else signal.addEventListener('abort', () => bridge.abort(signal.reason), { once: true });
  return bridge.signal;
}

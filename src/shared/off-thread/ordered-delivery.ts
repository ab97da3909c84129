/**
 * Delivers messages in the order they arrived when some of them are parsed elsewhere (on the
 * worker thread): while one is being parsed, later ones wait behind it. When nothing waits, a
 * message is delivered at once, without a promise in between.
 */
export class OrderedDelivery {
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;

  /** True when nothing waits. */
  get idle(): boolean {
    return this.queued === 0;
  }

  /** Runs `deliver` now, or after what waits. */
  now(deliver: () => void): void {
    if (this.queued === 0) {
      deliver();
      return;
    }
    this.enqueue(Promise.resolve(), deliver, () => undefined);
  }

  /** Runs `deliver` with the value once it is there and everything before it was delivered; `failed` when it fails. */
  later<T>(value: Promise<T>, deliver: (value: T) => void, failed: (error: unknown) => void): void {
    this.enqueue(value, deliver, failed);
  }

  /** Settles once everything queued so far was delivered. */
  drained(): Promise<void> {
    return this.chain;
  }

  private enqueue<T>(value: Promise<T>, deliver: (value: T) => void, failed: (error: unknown) => void): void {
    this.queued += 1;
    // Attach now, so a rejection is never reported as unhandled while earlier messages wait.
    const settled = value.then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    this.chain = this.chain.then(async () => {
      const outcome = await settled;
      this.queued -= 1;
      if (outcome.ok) deliver(outcome.result);
      else failed(outcome.error);
    });
  }
}

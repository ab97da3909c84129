import { abortSignalOf, CallerDeparture, type CallerSignal } from './caller-signal.js';

describe('CallerDeparture', () => {
  it('tells each listener once, in order, when the caller first leaves', () => {
    const departure = new CallerDeparture();
    const heard: string[] = [];
    const first = () => heard.push('first');
    departure.addEventListener('abort', first);
    departure.addEventListener('abort', first);
    departure.addEventListener('abort', () => heard.push('second'));
    expect(departure.aborted).toBe(false);
    departure.abort();
    departure.abort(new Error('again'));
    expect(heard).toEqual(['first', 'second']);
    expect(departure.aborted).toBe(true);
    expect(departure.reason).toBeInstanceOf(DOMException);
    expect((departure.reason as DOMException).name).toBe('AbortError');
  });

  it('keeps the reason given, forgets removed listeners, and tells no one who listens after it left', () => {
    const departure = new CallerDeparture();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    departure.addEventListener('abort', removed);
    departure.removeEventListener('abort', removed);
    departure.removeEventListener('abort', () => undefined);
    const reason = new Error('client went away');
    departure.abort(reason);
    departure.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual([]);
    expect(departure.reason).toBe(reason);
  });

  it('is what an AbortSignal is to a call', () => {
    const controller = new AbortController();
    const signals: CallerSignal[] = [controller.signal, new CallerDeparture()];
    expect(signals.every((signal) => signal.aborted === false)).toBe(true);
  });

  it('gives an AbortSignal that follows it, made once, for the APIs that need one', () => {
    const departure = new CallerDeparture();
    const signal = abortSignalOf(departure);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(abortSignalOf(departure)).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = new DOMException('The call timed out', 'TimeoutError');
    departure.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const left = new CallerDeparture();
    left.abort(new Error('gone'));
    expect(abortSignalOf(left).aborted).toBe(true);
    expect((abortSignalOf(left).reason as Error).message).toBe('gone');
  });

  it('hands an AbortSignal back as itself, and bridges any other caller signal', () => {
    const controller = new AbortController();
    expect(abortSignalOf(controller.signal)).toBe(controller.signal);
    const listeners: (() => void)[] = [];
    const other: CallerSignal = {
      aborted: false,
      reason: undefined,
      addEventListener: (_type, listener) => listeners.push(listener),
      removeEventListener: () => undefined,
    };
    const bridged = abortSignalOf(other);
    expect(bridged.aborted).toBe(false);
    (other as { aborted: boolean }).aborted = true;
    listeners.forEach((listener) => listener());
    expect(bridged.aborted).toBe(true);
  });
});

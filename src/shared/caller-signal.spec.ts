import { CallerDeparture, type CallerSignal } from './caller-signal.js';

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
});

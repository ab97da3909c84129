import { CallerDeparture } from '../../../shared/caller-signal.js';
import { CallSignal } from './call-signal.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CallSignal', () => {
  const signals: CallSignal[] = [];
  const make = (timeoutMs: number, caller?: CallerDeparture) => {
    const made = new CallSignal(timeoutMs, caller);
    signals.push(made);
    return made;
  };
  afterEach(() => signals.splice(0).forEach((made) => made.dispose()));

  it('aborts with a TimeoutError once its time is up', async () => {
    const call = make(30);
    await sleep(80);
    expect(call.signal.aborted).toBe(true);
    expect((call.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(call.expiredWhileHeld).toBe(false);
  });

  it('stops its time while held, and runs the time that was left once released', async () => {
    const call = make(100);
    const release = call.hold(10_000);
    await sleep(200);
    expect(call.signal.aborted).toBe(false);
    release();
    await sleep(40);
    expect(call.signal.aborted).toBe(false);
    await sleep(150);
    expect(call.signal.aborted).toBe(true);
    expect(call.expiredWhileHeld).toBe(false);
  });

  it('holds nest: the time runs again only once the last hold is released, and a second release changes nothing', async () => {
    const call = make(60);
    const first = call.hold(10_000);
    const second = call.hold(10_000);
    first();
    first();
    await sleep(150);
    expect(call.signal.aborted).toBe(false);
    second();
    await sleep(150);
    expect(call.signal.aborted).toBe(true);
  });

  it('times out when a hold outlasts its bound, and says so', async () => {
    const call = make(10_000);
    const release = call.hold(40);
    await sleep(120);
    expect(call.signal.aborted).toBe(true);
    expect(call.expiredWhileHeld).toBe(true);
    release();
    expect(call.signal.aborted).toBe(true);
  });

  it('still ends when its caller leaves while it is held', () => {
    const caller = new CallerDeparture();
    const call = make(10_000, caller);
    call.hold(10_000);
    caller.abort(new Error('gone'));
    expect(call.signal.aborted).toBe(true);
    expect(call.expiredWhileHeld).toBe(false);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { BackgroundPass } from './background-pass.js';
import { until } from './testing/until.js';

/** A pass that waits until released, counting how many began. */
function gatedWork() {
  let began = 0;
  let release: () => void = () => undefined;
  const work = async () => {
    began += 1;
    await new Promise<void>((resolve) => (release = resolve));
    return began;
  };
  return { work, began: () => began, release: () => release() };
}

describe('BackgroundPass', () => {
  it('answers the pass under way rather than starting a second', async () => {
    const gate = gatedWork();
    const passes = new BackgroundPass(gate.work);
    const first = passes.run();
    const second = passes.run();
    expect(second).toBe(first);
    gate.release();
    expect(await first).toBe(1);
    const third = passes.run();
    expect(third).not.toBe(first);
    gate.release();
    expect(await third).toBe(2);
  });

  it('runs a pass at once and then on every tick, or only on the ticks when told', async () => {
    let now = 0;
    let later = 0;
    const atOnce = new BackgroundPass(async () => void (now += 1));
    const onTicks = new BackgroundPass(async () => void (later += 1));
    atOnce.start(20, () => undefined);
    onTicks.start(20, () => undefined, false);
    expect([now, later]).toEqual([1, 0]);
    await until(() => later >= 2);
    await Promise.all([atOnce.stop(), onTicks.stop()]);
    // The two timers tick together: the one that began at once is one pass ahead.
    expect(now).toBe(later + 1);
    const stopped = [now, later];
    await sleep(50);
    expect([now, later]).toEqual(stopped);
  });

  it('tells of each failed pass and goes on; stop waits for the pass under way and reports stopping', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    let release: () => void = () => undefined;
    const passes = new BackgroundPass(async () => {
      calls += 1;
      if (calls === 1) throw new Error('first fails');
      await new Promise<void>((resolve) => (release = resolve));
    });
    passes.start(10, (error) => failures.push(error));
    await until(() => calls === 2);
    await sleep(30);
    expect(failures).toEqual([new Error('first fails')]);
    // The ticks meanwhile found the second pass under way and started none.
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = passes.stop().then(() => (stopped = true));
    expect(passes.stopping).toBe(true);
    await sleep(10);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(calls).toBe(2);
  });
});

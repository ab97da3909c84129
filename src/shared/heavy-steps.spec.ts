import { HeavySteps, isHeavy, isHeavyText, weighsMore } from './heavy-steps.js';

/** Resolves after `turns` turns of the event loop (each a timer and an immediate). */
const turnsLater = async (turns: number) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('heavy steps', () => {
  it('run one per turn of the event loop, in the order they asked, with timers in between', async () => {
    const steps = new HeavySteps();
    const events: string[] = [];
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const asked = [0, 1, 2, 3].map((i) =>
      steps.turn().then(() => {
        events.push(`step ${i}`);
        busy(5);
      }),
    );
    // Due long before the first step ends: it runs before the second step, not after all four.
    setTimeout(() => events.push('timer'), 0);
    await Promise.all(asked);
    expect(events.filter((event) => event.startsWith('step'))).toEqual(['step 0', 'step 1', 'step 2', 'step 3']);
    expect(events.indexOf('timer')).toBeLessThan(events.indexOf('step 1'));
    expect(steps.queued).toBe(0);
  });

  it('slices a long pass: `next` answers at once within a slice, and at a later turn once the slice has run its time', async () => {
    const steps = new HeavySteps();
    const slices = steps.slices(5);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    await slices.next();
    expect(timerRan).toBe(false);
    const until = performance.now() + 8;
    while (performance.now() < until);
    await slices.next();
    expect(timerRan).toBe(true);
  });

  it('keeps no step waiting longer than its place in the queue', async () => {
    const steps = new HeavySteps();
    let done = 0;
    for (let i = 0; i < 50; i++) void steps.turn().then(() => done++);
    expect(steps.queued).toBe(50);
    await turnsLater(60);
    expect(done).toBe(50);
  });

  it('weighs a value by its values and its text, and stops counting past the limit', () => {
    expect(isHeavy({ text: 'a'.repeat(200_000) })).toBe(true);
    expect(isHeavy({ text: 'a'.repeat(10_000) })).toBe(false);
    expect(isHeavy({ list: Array.from({ length: 6_600 }, (_, k) => ({ k, v: 'x' })) })).toBe(true);
    expect(isHeavy({ list: Array.from({ length: 500 }, (_, k) => ({ k, v: 'x' })) })).toBe(false);
    expect(isHeavy(null)).toBe(false);
    expect(weighsMore([1, 2, 3], 3)).toBe(true);
    expect(weighsMore([1, 2, 3], 4)).toBe(false);
    // Members are looked at only while the limit is not reached: a getter past it is never called.
    const tooMany = Object.defineProperty([1, 2, 3], 3, { get: () => { throw new Error('walked past the limit'); }, enumerable: true });
    expect(weighsMore(tooMany, 2)).toBe(true);
  });

  it('finds a body of 64 KiB and more heavy to parse', () => {
    expect(isHeavyText('x'.repeat(65_536))).toBe(false);
    expect(isHeavyText('x'.repeat(65_537))).toBe(true);
  });
});

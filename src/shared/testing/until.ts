import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `done` holds, looking every 5 ms (a busy machine delays timers: no fixed sleep is long enough). */
export async function until(done: () => boolean, withinMs = 5000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${withinMs} ms`);
    await sleep(5);
  }
}

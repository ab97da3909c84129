import { HeldStorage } from './held-storage.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HeldStorage', () => {
  it('gives its store to everything the work goes on to do, until released', async () => {
    const storage = new HeldStorage<string>(0);
    let seenLater: string | undefined;
    const { value, release } = storage.run('request-1', () => {
      setImmediate(() => (seenLater = storage.getStore()));
      return storage.getStore();
    });
    expect(value).toBe('request-1');
    await tick();
    expect(seenLater).toBe('request-1');
    expect(storage.holding).toBe(true);
    release();
    expect(storage.holding).toBe(false);
    expect(storage.getStore()).toBeUndefined();
  });

  it('is switched off only when the last holder released it', async () => {
    const storage = new HeldStorage<string>(0);
    const first = storage.run('a', () => undefined);
    const second = storage.run('b', () => undefined);
    let seen: string | undefined;
    const third = storage.run('c', () => setImmediate(() => (seen = storage.getStore())));
    first.release();
    second.release();
    // A release called twice counts once.
    second.release();
    expect(storage.holding).toBe(true);
    await tick();
    expect(seen).toBe('c');
    third.release();
    expect(storage.holding).toBe(false);
  });

  it('stays on for idleMs after the last release, then switches off; the next run switches it on again', async () => {
    const storage = new HeldStorage<string>(30);
    let readAfterRelease: (() => string | undefined) | undefined;
    const { release } = storage.run('late', () => {
      readAfterRelease = () => storage.getStore();
    });
    const later = new Promise<string | undefined>((resolve) => storage.run('late-2', () => setTimeout(() => resolve(storage.getStore()), 5)).release());
    release();
    expect(storage.holding).toBe(true);
    // Work the request left behind still reads its store during the grace period.
    expect(await later).toBe('late-2');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(storage.holding).toBe(false);
    expect(readAfterRelease!()).toBeUndefined();
    expect(storage.run('again', () => storage.getStore()).value).toBe('again');
  });

  it('runAsync holds the store until the work settles, and releases it when the work throws', async () => {
    const storage = new HeldStorage<number>(0);
    await expect(
      storage.runAsync(7, async () => {
        await tick();
        return storage.getStore();
      }),
    ).resolves.toBe(7);
    expect(storage.holding).toBe(false);
    await expect(storage.runAsync(8, () => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    expect(storage.holding).toBe(false);
    expect(() => storage.run(9, () => { throw new Error('sync failure'); })).toThrow('sync failure');
    expect(storage.holding).toBe(false);
  });
});

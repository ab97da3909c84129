import { Deadline } from './deadline.js';
import { UpstreamError } from './upstream-error.js';

const timeoutReason = () => new DOMException('The call timed out', 'TimeoutError');

describe('Deadline', () => {
  it('expires on its own timer and says how long it waited', async () => {
    const deadline = new Deadline(20);
    await expect(deadline.run('calling tool echo', () => new Promise(() => undefined))).rejects.toMatchObject({
      kind: 'timeout',
      message: 'timed out after 20 ms calling tool echo',
    });
    expect(deadline.expired).toBe(true);
    expect(deadline.cancelled).toBe(false);
    deadline.dispose();
  });

  it('is cancelled when its parent aborts, whatever the reason', () => {
    const parent = new AbortController();
    const deadline = new Deadline(60_000, parent.signal);
    parent.abort(timeoutReason());
    expect(deadline.cancelled).toBe(true);
    expect(deadline.expired).toBe(false);
    expect(deadline.stopError('calling tool echo')).toMatchObject({ kind: 'aborted' });
    deadline.dispose();
  });

  describe('following a parent that times out itself', () => {
    it('uses the parent signal instead of one of its own', () => {
      const parent = new AbortController();
      const deadline = new Deadline(60_000, parent.signal, true);
      expect(deadline.signal).toBe(parent.signal);
      deadline.dispose();
    });

    it("reads the parent's TimeoutError as its expiry", async () => {
      const parent = new AbortController();
      const deadline = new Deadline(60_000, parent.signal, true);
      const running = deadline.run('calling tool echo', () => new Promise(() => undefined));
      parent.abort(timeoutReason());
      const error = await running.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ kind: 'timeout', message: 'timed out after 60000 ms calling tool echo' });
      expect(deadline.expired).toBe(true);
      deadline.dispose();
    });

    it('reads any other reason as the caller cancelling', () => {
      const parent = new AbortController();
      const deadline = new Deadline(60_000, parent.signal, true);
      parent.abort(new Error('cancelled by the caller'));
      expect(deadline.cancelled).toBe(true);
      expect(deadline.expired).toBe(false);
      expect(deadline.stopError('calling tool echo')).toMatchObject({ kind: 'aborted', message: 'cancelled while calling tool echo: cancelled by the caller' });
      deadline.dispose();
    });

    it('arms no timer: it never expires while the parent has not aborted', async () => {
      const parent = new AbortController();
      const deadline = new Deadline(5, parent.signal, true);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(deadline.signal.aborted).toBe(false);
      expect(deadline.remainingMs()).toBe(1);
      deadline.dispose();
    });
  });
});

import type { CallListeners, InputRequest } from '../../../domain/tool-invoker.port.js';
import { holdingWhileAsked } from './hold-while-asked.js';

const ASK: InputRequest = { method: 'elicitation/create', params: { message: 'Delete it?' } };

/** A pass that counts the holds under way. */
function countingPass() {
  const pass = { held: 0, bounds: [] as number[], hold: (maxMs: number) => {
    pass.held += 1;
    pass.bounds.push(maxMs);
    return () => void (pass.held -= 1);
  } };
  return pass;
}

describe('holdingWhileAsked', () => {
  it('holds the call while each request for input waits for its answer, with the bound given, and lets go once answered', async () => {
    const pass = countingPass();
    let answer!: (value: Record<string, unknown>) => void;
    const listeners = holdingWhileAsked({ onInputRequest: () => new Promise((resolve) => (answer = resolve)) }, pass, 5000);
    const asked = listeners.onInputRequest!(ASK);
    expect([pass.held, pass.bounds]).toEqual([1, [5000]]);
    answer({ action: 'accept' });
    await expect(asked).resolves.toEqual({ action: 'accept' });
    expect(pass.held).toBe(0);
  });

  it('lets go when the request fails too', async () => {
    const pass = countingPass();
    const listeners = holdingWhileAsked({ onInputRequest: () => Promise.reject(new Error('the task ended')) }, pass, 5000);
    await expect(listeners.onInputRequest!(ASK)).rejects.toThrow('the task ended');
    expect(pass.held).toBe(0);
  });

  it('leaves listeners without a way to ask as they are', () => {
    const onProgress = () => undefined;
    const listeners: CallListeners = { onProgress };
    expect(holdingWhileAsked(listeners, countingPass(), 5000)).toBe(listeners);
  });
});

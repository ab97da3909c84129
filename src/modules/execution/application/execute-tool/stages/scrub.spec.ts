import { SecretScrubber } from '../../../../../shared/secret-scrubber.js';
import { refuse, type Outcome } from '../outcome.js';
import { scrubbedListeners, scrubOutcome } from './scrub.js';

describe('scrub', () => {
  const scrubber = new SecretScrubber([{ name: 'KEY', value: 'k3y-of-the-source' }]);
  const outcome: Outcome = { status: 'succeeded', isError: false, error: null, result: { content: [{ type: 'text', text: 'k3y-of-the-source' }], structuredContent: { 'k3y-of-the-source': 1 }, truncated: false, originalBytes: 10 } };

  it("replaces the source's secrets in the result and the error, and leaves a call without secrets as it is", () => {
    expect(scrubOutcome(outcome, scrubber).result).toEqual({ content: [{ type: 'text', text: '[secret:KEY]' }], structuredContent: { '[secret:KEY]': 1 }, truncated: false, originalBytes: 10 });
    expect(scrubOutcome(refuse('upstream_error', 'UPSTREAM_UNAVAILABLE', 'failed with k3y-of-the-source'), scrubber).error?.message).toBe('failed with [secret:KEY]');
    expect(scrubOutcome(outcome, SecretScrubber.none)).toBe(outcome);
  });

  it('replaces them in what the caller hears while the call runs, and adds no listener it did not have', async () => {
    const heard: unknown[] = [];
    const listeners = scrubbedListeners(
      {
        onProgress: (update) => heard.push(update),
        log: { level: 'warning', onMessage: (message) => heard.push(message) },
        onInputRequest: async (request) => (heard.push(request), {}),
      },
      scrubber,
    );
    listeners.onProgress!({ progress: 1, total: 2, message: 'k3y-of-the-source' });
    listeners.onProgress!({ progress: 2 });
    listeners.log!.onMessage({ level: 'error', data: ['k3y-of-the-source'] });
    await listeners.onInputRequest!({ method: 'sampling/createMessage', params: { text: 'k3y-of-the-source' } });
    expect(listeners.log!.level).toBe('warning');
    expect(heard).toEqual([
      { progress: 1, total: 2, message: '[secret:KEY]' },
      { progress: 2 },
      { level: 'error', data: ['[secret:KEY]'] },
      { method: 'sampling/createMessage', params: { text: '[secret:KEY]' } },
    ]);
    expect(scrubbedListeners({}, scrubber)).toEqual({});
  });
});

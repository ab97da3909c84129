import type { CallListeners } from '../../../domain/tool-invoker.port.js';
import type { SourcePass } from '../source-pass.js';

/**
 * A task's call does not time out while it waits for its caller's input (a person may take
 * minutes to answer): each request for input stops the call's time until its answer, for at most
 * `maxMs`, and the time left runs again once the answer came.
 */
export function holdingWhileAsked(listeners: CallListeners, pass: Pick<SourcePass, 'hold'>, maxMs: number): CallListeners {
  const ask = listeners.onInputRequest;
  if (!ask) return listeners;
  return {
    ...listeners,
    onInputRequest: async (request) => {
      const release = pass.hold(maxMs);
      try {
        return await ask(request);
      } finally {
        release();
      }
    },
  };
}

import type { SecretScrubber } from '../../../../../shared/secret-scrubber.js';
import type { CallListeners, InputRequest, ProgressUpdate, UpstreamLogMessage } from '../../../domain/tool-invoker.port.js';
import type { Outcome } from '../outcome.js';

/**
 * The outcome as the caller and the record get it: the result and the error as they came, except
 * the source's own secrets, replaced by markers naming them. A tool that echoes its credentials
 * must not hand them to an agent that may call it but not read them. Refuses nothing.
 */
export function scrubOutcome(outcome: Outcome, scrubber: SecretScrubber): Outcome {
  if (scrubber.empty) return outcome;
  return { ...outcome, result: outcome.result && scrubber.json(outcome.result), error: outcome.error && scrubber.json(outcome.error) };
}

/**
 * What the upstream tells the caller while the call runs (progress, log messages, requests for
 * input), with the source's own secrets replaced, as in the outcome.
 */
export function scrubbedListeners(listeners: CallListeners, scrubber: SecretScrubber): CallListeners {
  const { onProgress, log, onInputRequest } = listeners;
  const scrubbed: CallListeners = {};
  if (onProgress) scrubbed.onProgress = (update: ProgressUpdate) => onProgress(update.message === undefined ? update : { ...update, message: scrubber.text(update.message) });
  if (log) scrubbed.log = { level: log.level, onMessage: (message: UpstreamLogMessage) => log.onMessage(scrubber.json(message)) };
  if (onInputRequest) scrubbed.onInputRequest = (inputRequest: InputRequest) => onInputRequest(scrubber.json(inputRequest));
  return scrubbed;
}

import type { ServerResponse } from 'node:http';

/**
 * Calls `abort` when the client goes away before its answer is complete (the response closes
 * unfinished). Answers the function that stops listening.
 */
export function onClientGone(response: ServerResponse, abort: () => void): () => void {
  const onClose = () => {
    if (!response.writableFinished) abort();
  };
  response.once('close', onClose);
  return () => response.off('close', onClose);
}

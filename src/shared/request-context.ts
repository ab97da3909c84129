import { HeldStorage } from './held-storage.js';

/** What is known of the HTTP request a piece of work serves, for the records it writes. */
export interface RequestContext {
  /** The caller's `X-Request-Id` when it is a sane token, else one Toolplane made; answered back. */
  requestId: string;
  /** The client's address as the socket saw it. */
  clientAddress: string | null;
}

/**
 * Held while a request that reads it is served, and a second after (see HeldStorage). Tool calls
 * (REST invoke, MCP) do not run in it: they name their request themselves (ExecuteToolInput.requestId).
 */
const storage = new HeldStorage<RequestContext>(1000);

export const requestContext = {
  /** Runs `work` in the context; everything it goes on to do reads it until `release` is called (the response is over). */
  run<T>(context: RequestContext, work: () => T): { value: T; release: () => void } {
    return storage.run(context, work);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};

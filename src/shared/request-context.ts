import { AsyncLocalStorage } from 'node:async_hooks';

/** What is known of the HTTP request a piece of work serves, for the records it writes. */
export interface RequestContext {
  /** The caller's `X-Request-Id` when it is a sane token, else one Toolplane made; answered back. */
  requestId: string;
  /** The client's address as the socket saw it. */
  clientAddress: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(context: RequestContext, work: () => T): T {
    return storage.run(context, work);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};

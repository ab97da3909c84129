/** The stream, calling `done` once it ends, fails or the reader cancels it; `end` ends it from this side. */
export function untilClosed(body: ReadableStream<Uint8Array>, done: () => void): { stream: ReadableStream<Uint8Array>; end: () => void } {
  const reader = body.getReader();
  let ended = false;
  let endController: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      endController = controller;
    },
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (ended) return;
        if (finished) {
          done();
          controller.close();
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      ended = true;
      done();
      return reader.cancel(reason).catch(() => undefined);
    },
  });
  const end = () => {
    if (ended) return;
    ended = true;
    done();
    endController?.close();
    void reader.cancel().catch(() => undefined);
  };
  return { stream, end };
}

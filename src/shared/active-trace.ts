/** The trace a piece of work belongs to, as logs and records name it. */
export interface TraceIds {
  traceId: string;
  spanId: string;
}

let reader: () => TraceIds | undefined = () => undefined;
let carrierReader: () => Record<string, string> | undefined = () => undefined;

/**
 * The trace of the work under way, for log lines and execution records. Nothing answers until
 * tracing is started (src/ops/tracing installs the reader), so it costs nothing when traces are off.
 */
export const activeTrace = {
  current(): TraceIds | undefined {
    return reader();
  },
  /** The active span's context as W3C carrier entries (`traceparent`, …) for an outgoing request, when one is recording. */
  carrier(): Record<string, string> | undefined {
    return carrierReader();
  },
  install(read: () => TraceIds | undefined, carrier: () => Record<string, string> | undefined = () => undefined): void {
    reader = read;
    carrierReader = carrier;
  },
};

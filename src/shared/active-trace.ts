/** The trace a piece of work belongs to, as logs and records name it. */
export interface TraceIds {
  traceId: string;
  spanId: string;
}

let reader: () => TraceIds | undefined = () => undefined;

/**
 * The trace of the work under way, for log lines and execution records. Nothing answers until
 * tracing is started (src/ops/tracing installs the reader), so it costs nothing when traces are off.
 */
export const activeTrace = {
  current(): TraceIds | undefined {
    return reader();
  },
  install(read: () => TraceIds | undefined): void {
    reader = read;
  },
};

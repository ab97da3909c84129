import { ExecutionRecorder, type ExecutionRecord } from '../../executions/domain/execution.js';

/**
 * ExecutionRecorder in memory: what was recorded as started, and the records, in order. Writes
 * each as an entry of `timeline` too (shared with the other fakes, to tell what came first), and
 * fails while `failure`/`startFailure` is set.
 */
export class FakeExecutionRecorder extends ExecutionRecorder {
  readonly records: ExecutionRecord[] = [];
  readonly started: ExecutionRecord[] = [];
  failure: Error | undefined;
  startFailure: Error | undefined;

  constructor(private readonly timeline: string[] = []) {
    super();
  }

  async record(execution: ExecutionRecord): Promise<void> {
    if (this.failure) throw this.failure;
    this.records.push(execution);
    this.timeline.push(`recorded ${execution.status}`);
  }

  async recordStarted(execution: ExecutionRecord): Promise<void> {
    if (this.startFailure) throw this.startFailure;
    this.started.push(execution);
    this.timeline.push('started');
  }
}

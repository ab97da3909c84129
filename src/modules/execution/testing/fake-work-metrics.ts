import { WorkMetrics, type CallObservation } from '../../../shared/work-metrics.js';

/** WorkMetrics that keeps the calls it is told of and ignores the rest. */
export class FakeWorkMetrics extends WorkMetrics {
  readonly calls: CallObservation[] = [];

  callEnded(call: CallObservation): void {
    this.calls.push(call);
  }
  mcpOperationEnded(): void {}
  mcpSessionEnded(): void {}
  refreshEnded(): void {}
  recordsCommitted(): void {}
  purgeBatchCommitted(): void {}
  purgePassEnded(): void {}
  perSource(): void {}
  connections(): void {}
}

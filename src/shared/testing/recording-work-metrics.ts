import { WorkMetrics, type ApprovalObservation, type CallObservation, type InterceptorObservation, type McpOperationObservation } from '../work-metrics.js';

/** Metrics that keep the refreshes and calls reported and ignore the rest. */
export class RecordingWorkMetrics extends WorkMetrics {
  readonly refreshes: { ok: boolean; seconds: number }[] = [];
  readonly calls: CallObservation[] = [];
  readonly interceptorRuns: InterceptorObservation[] = [];
  readonly approvals: ApprovalObservation[] = [];

  callEnded(call: CallObservation): void {
    this.calls.push(call);
  }
  interceptorRan(run: InterceptorObservation): void {
    this.interceptorRuns.push(run);
  }
  approvalDecided(approval: ApprovalObservation): void {
    this.approvals.push(approval);
  }
  mcpOperationEnded(_operation: McpOperationObservation): void {}
  mcpSessionEnded(_side: 'server' | 'client', _transport: string, _seconds: number): void {}
  refreshEnded(ok: boolean, seconds: number): void {
    this.refreshes.push({ ok, seconds });
  }
  recordsCommitted(_rows: number, _seconds: number): void {}
  purgeBatchCommitted(_rows: number, _seconds: number): void {}
  purgePassEnded(_seconds: number): void {}
  perSource(_name: 'in_flight' | 'queued' | 'circuit', _read: () => Map<string, number>): void {}
  connections(_read: () => { pooled: number; transient: number }): void {}
}

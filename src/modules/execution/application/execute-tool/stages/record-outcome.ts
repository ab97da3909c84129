import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../../config/app-config.js';
import { heavySteps } from '../../../../../shared/heavy-steps.js';
import { ExecutionRecorder, type ExecutionRecord, type ExecutionResult } from '../../../../executions/domain/execution.js';
import { storableCopy } from '../../../domain/storable-json.js';
import { limitResult } from '../../../domain/tool-result.js';
import type { Call } from '../call.js';
import { callRecord } from '../call-record.js';
import type { Outcome } from '../outcome.js';

/**
 * Writes the call's execution record — the arguments redacted, the scrubbed outcome, its attempts
 * and duration — and resolves once it is durable: the caller's answer waits for its own record.
 * Answers the record as the caller gets it. The stored copy has its result capped to
 * TOOLPLANE_STORED_RESULT_BYTES and whatever PostgreSQL cannot hold escaped, so that a call that ran
 * is always on the record. Refuses nothing (a record that cannot be written fails the call).
 */
@Injectable()
export class RecordOutcomeStage {
  constructor(
    @Inject(ExecutionRecorder) private readonly recorder: ExecutionRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `heavy`: the arguments or the result are large (isHeavy), so each pass over them takes a turn of the event loop of its own. */
  async run(call: Call, outcome: Outcome, heavy = false): Promise<ExecutionRecord> {
    const answer = callRecord(call, outcome, call.attempts);
    // Redacting (above), capping and escaping, and handing the record over each pass over the
    // arguments and the result: for large ones, each in a turn of its own.
    if (heavy) await heavySteps.turn();
    const stored = this.forStorage(answer, call);
    if (heavy) await heavySteps.turn();
    await this.recorder.record(stored);
    return answer;
  }

  /** The copy the history keeps: the result capped, and whatever PostgreSQL cannot hold escaped. */
  private forStorage(record: ExecutionRecord, call: Call): ExecutionRecord {
    let stored = record;
    const { result } = record;
    if (result && result.content.length > 0 && !this.knownToFit(result, call)) {
      const capped = limitResult({ isError: record.isError, content: result.content, structuredContent: result.structuredContent }, this.config.storedResultBytes);
      if (capped.truncated) {
        stored = { ...record, result: { ...result, content: capped.content, structuredContent: capped.structuredContent, truncated: true, originalBytes: Math.max(capped.originalBytes, result.originalBytes) } };
      }
    }
    return {
      ...stored,
      arguments: storableCopy(stored.arguments),
      result: stored.result && storableCopy(stored.result),
      error: stored.error && storableCopy(stored.error),
      ...(stored.interceptors ? { interceptors: storableCopy(stored.interceptors) } : {}),
    };
  }

  /**
   * Whether the result is the upstream's, untouched since (nothing scrubbed or replaced), and its
   * size, which the invoker measured, within the stored cap: then it is not serialized again to
   * be measured.
   */
  private knownToFit(result: ExecutionResult, call: Call): boolean {
    return result === call.measuredResult && !result.truncated && result.originalBytes <= this.config.storedResultBytes;
  }
}

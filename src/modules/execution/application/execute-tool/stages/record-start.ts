import { Inject, Injectable } from '@nestjs/common';
import { ExecutionRecorder } from '../../../../executions/domain/execution.js';
import { storableCopy } from '../../../domain/storable-json.js';
import type { Call } from '../call.js';
import { callRecord } from '../call-record.js';
import { refuse, type Outcome } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

const INTERRUPTED: Outcome = { status: 'interrupted', isError: false, result: null, error: null };

/**
 * Puts a call to a tool that is not read-only (and every task) on the record before it is sent: should Toolplane
 * stop before its outcome is recorded, the next start records it as `interrupted`. Group-committed
 * with the other calls' starts, so under load many share one commit. Refuses RECORD_UNAVAILABLE
 * when the start cannot be written: nothing is sent then.
 */
@Injectable()
export class RecordStartStage {
  constructor(@Inject(ExecutionRecorder) private readonly recorder: ExecutionRecorder) {}

  run(call: Call): StageVerdict | Promise<StageVerdict> {
    // A task's start is recorded whatever the tool: a restart must leave every task with a known end.
    return call.route!.tool.annotations?.readOnlyHint === true && call.input.asTask !== true ? undefined : this.recordStarted(call);
  }

  private async recordStarted(call: Call): Promise<StageVerdict> {
    try {
      // What it becomes should Toolplane stop before the outcome is recorded; stored as PostgreSQL can hold it.
      const started = callRecord(call, INTERRUPTED, 1);
      started.arguments = storableCopy(call.recordedArguments);
      started.durationMs = 0;
      if (started.interceptors) started.interceptors = storableCopy(started.interceptors);
      await this.recorder.recordStarted(started);
      return undefined;
    } catch {
      return refuse('rejected', 'RECORD_UNAVAILABLE', 'The call could not be recorded, so it was not sent.', true, undefined, { retryAfterMs: 1000 });
    }
  }
}

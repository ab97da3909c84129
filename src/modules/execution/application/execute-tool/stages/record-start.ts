import { Inject, Injectable } from '@nestjs/common';
import { activeTrace } from '../../../../../shared/active-trace.js';
import { ExecutionRecorder } from '../../../../executions/domain/execution.js';
import { storableCopy } from '../../../domain/storable-json.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

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
    const { tool, source } = call.route!;
    try {
      await this.recorder.recordStarted({
        id: call.id,
        toolId: tool.id,
        qualifiedName: tool.qualifiedName,
        sourceId: source.id,
        sourceName: source.name,
        definitionHash: tool.definitionHash,
        caller: call.command.caller,
        channel: call.command.channel,
        arguments: storableCopy(call.recordedArguments),
        status: 'interrupted', // what it becomes should Toolplane stop before the outcome is recorded
        isError: false,
        result: null,
        error: null,
        attempts: 1,
        startedAt: call.startedAt,
        durationMs: 0,
        traceId: activeTrace.current()?.traceId ?? null,
        ...(call.input.group !== undefined ? { group: call.input.group.slice(0, 200) } : {}),
        ...(call.interceptors.length > 0 ? { interceptors: storableCopy([...call.interceptors]) } : {}),
      });
      return undefined;
    } catch {
      return refuse('rejected', 'RECORD_UNAVAILABLE', 'The call could not be recorded, so it was not sent.', true, undefined, { retryAfterMs: 1000 });
    }
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { logLevel } from '../../../../../shared/logging/log-level.js';
import { WorkMetrics } from '../../../../../shared/work-metrics.js';
import type { ExecutionRecord } from '../../../../executions/domain/execution.js';
import type { Call } from '../call.js';

/**
 * Tells operators how the call went, once it is on the record: the call's metrics (WorkMetrics:
 * count, duration, upstream time, by source, tool, channel and status) and one log line — who
 * called what, how it ended, how long it took, never its arguments or result. Refuses nothing.
 */
@Injectable()
export class ReportStage {
  private readonly logger = new Logger('calls');

  constructor(@Inject(WorkMetrics) private readonly metrics: WorkMetrics) {}

  run(call: Call, answer: ExecutionRecord): void {
    // Built only when written: every call passes here.
    if (logLevel.enabled('info')) this.logCall(answer, call.input.requestId);
    const { route } = call;
    this.metrics.callEnded({
      source: route?.source.name ?? null,
      tool: route?.tool.qualifiedName ?? null,
      channel: answer.channel,
      status: answer.status,
      seconds: answer.durationMs / 1000,
      upstreamSeconds: call.upstreamMs === null ? null : call.upstreamMs / 1000,
    });
  }

  private logCall(answer: ExecutionRecord, requestId: string | undefined): void {
    this.logger.log({
      // Calls do not run in the request context (see requestContext): the line names its request itself.
      ...(requestId !== undefined ? { requestId } : {}),
      msg: 'call ended',
      executionId: answer.id,
      tool: answer.qualifiedName,
      source: answer.sourceName,
      channel: answer.channel,
      status: answer.status,
      ...(answer.error ? { code: answer.error.code } : {}),
      durationMs: answer.durationMs,
      principal: answer.caller.principalId,
      ...(answer.caller.clientName !== undefined ? { client: answer.caller.clientName } : {}),
    });
  }
}

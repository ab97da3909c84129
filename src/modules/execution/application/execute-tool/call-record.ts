import { activeTrace } from '../../../../shared/active-trace.js';
import type { ExecutionRecord } from '../../../executions/domain/execution.js';
import type { Call } from './call.js';
import type { Outcome } from './outcome.js';

/**
 * The execution record of a call with this outcome, as its caller gets it: the tool and source it
 * was routed to (what the caller named when it was not), who called and how, the arguments as
 * recorded, how long it has taken so far, and the group and interceptors it went through.
 */
export function callRecord(call: Call, outcome: Outcome, attempts: number): ExecutionRecord {
  const { route, command } = call;
  const record: ExecutionRecord = {
    id: call.id,
    toolId: route?.tool.id ?? null,
    qualifiedName: (route?.tool.qualifiedName ?? call.input.qualifiedName).slice(0, 200),
    sourceId: route?.source.id ?? null,
    sourceName: route?.source.name ?? null,
    definitionHash: route?.tool.definitionHash ?? null,
    caller: command.caller,
    channel: command.channel,
    arguments: call.recordedArguments,
    status: outcome.status,
    isError: outcome.isError,
    result: outcome.result,
    error: outcome.error,
    attempts,
    startedAt: call.startedAt,
    durationMs: Math.round((performance.now() - call.began) * 1000) / 1000,
    traceId: activeTrace.current()?.traceId ?? null,
  };
  if (call.input.group !== undefined) record.group = call.input.group.slice(0, 200);
  if (call.interceptors.length > 0) record.interceptors = [...call.interceptors];
  return record;
}

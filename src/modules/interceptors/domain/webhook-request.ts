import type { InterceptedCall } from './intercepted-call.js';
import type { InterceptorPhase } from './interceptor.js';

/** The version of the webhook contract (docs/interceptor-webhook.md); a receiver reads `version` first. */
export const WEBHOOK_CONTRACT_VERSION = 1;

/** What a `webhook` interceptor POSTs: the call (pre) or the call and its result (post). */
export interface WebhookRequestBody {
  version: typeof WEBHOOK_CONTRACT_VERSION;
  phase: InterceptorPhase;
  executionId: string;
  interceptor: string;
  tool: { qualifiedName: string; name: string; source: string; annotations: Record<string, unknown> | null };
  group: string | null;
  principal: { id: string; name: string };
  channel: 'rest' | 'mcp';
  arguments: Record<string, unknown>;
  /** post only: the result as the interceptors before this one left it. */
  result?: { content: unknown[]; structuredContent?: unknown; isError: boolean; truncated: boolean };
  trace: { traceparent: string | null };
}

export function webhookRequestBody(interceptor: string, phase: InterceptorPhase, call: InterceptedCall): WebhookRequestBody {
  const body: WebhookRequestBody = {
    version: WEBHOOK_CONTRACT_VERSION,
    phase,
    executionId: call.executionId,
    interceptor,
    tool: { qualifiedName: call.tool.qualifiedName, name: call.tool.name, source: call.tool.sourceName, annotations: call.tool.annotations },
    group: call.group,
    principal: { id: call.principal.id, name: call.principal.name },
    channel: call.channel,
    arguments: call.arguments,
    trace: { traceparent: call.traceparent ?? null },
  };
  if (phase === 'post') {
    const result = call.result;
    body.result = {
      content: result?.content ?? [],
      ...(result?.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
      isError: call.isError ?? false,
      truncated: result?.truncated ?? false,
    };
  }
  return body;
}

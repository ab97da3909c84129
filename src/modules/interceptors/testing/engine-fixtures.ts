import { resultBytes } from '../../../shared/json-bytes.js';
import type { ExecutionResult } from '../../executions/domain/execution.js';
import type { InterceptedCall } from '../domain/intercepted-call.js';
import { KIND_PHASES, type InterceptorSettings, type InterceptorSpec } from '../domain/interceptor.js';

/** An interceptor of the given kind and settings, enabled everywhere, in its kind's first phase. */
export function anInterceptor<K extends InterceptorSettings['kind']>(
  kind: K,
  settings: Extract<InterceptorSettings, { kind: K }>['settings'],
  name = `${kind}-interceptor`,
): InterceptorSpec {
  return {
    name,
    description: '',
    phase: KIND_PHASES[kind][0]!,
    order: 0,
    scope: {},
    onError: 'deny',
    timeoutMs: 1000,
    enabled: true,
    kind,
    settings,
  } as InterceptorSpec;
}

type CallChanges = Partial<Omit<InterceptedCall, 'tool'>> & { tool?: Partial<InterceptedCall['tool']> };

/** A REST call of `everything__echo` with the given changes. */
export function anInterceptedCall(changes: CallChanges = {}): InterceptedCall {
  const { tool, ...rest } = changes;
  return {
    executionId: 'execution-1',
    group: null,
    principal: { id: 'principal-1', name: 'ci' },
    channel: 'rest',
    arguments: {},
    ...rest,
    tool: {
      qualifiedName: 'everything__echo',
      name: 'echo',
      sourceName: 'everything',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
      outputSchema: null,
      annotations: null,
      description: null,
      ...tool,
    },
  };
}

/** A result of the given content blocks (and structuredContent), as the upstream answered it. */
export function aResult(content: unknown[], structuredContent?: unknown): ExecutionResult {
  return { content, ...(structuredContent === undefined ? {} : { structuredContent }), truncated: false, originalBytes: resultBytes(content, structuredContent) };
}

export const text = (value: string) => ({ type: 'text', text: value });

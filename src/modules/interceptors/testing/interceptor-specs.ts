import type { InterceptorSpec } from '../domain/interceptor.js';

/** A webhook interceptor (any kind will do where an engine is faked), everywhere, pre, order 100, onError deny, 1 s. */
export function anInterceptor(name: string, overrides: Partial<InterceptorSpec> = {}): InterceptorSpec {
  return {
    name,
    description: '',
    phase: 'pre',
    order: 100,
    scope: {},
    onError: 'deny',
    timeoutMs: 1000,
    enabled: true,
    kind: 'webhook',
    settings: { url: 'http://127.0.0.1:1/decide', signingSecret: 'hook-key' },
    ...overrides,
  } as InterceptorSpec;
}

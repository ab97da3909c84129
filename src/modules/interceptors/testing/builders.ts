import { aFirstRevision } from '../../../shared/testing/revisions.js';
import type { Interceptor } from '../domain/interceptor.js';

/** A stored interceptor: a deny of every call in scope unless `spec` says otherwise. */
export function anInterceptor(name: string, spec: Partial<Interceptor> = {}): Interceptor {
  return {
    ...aFirstRevision(`interceptor-${name}`),
    name,
    description: '',
    kind: 'deny',
    phase: 'pre',
    order: 0,
    scope: {},
    onError: 'deny',
    timeoutMs: 1000,
    enabled: true,
    settings: { rules: [{ message: 'No.' }] },
    ...spec,
  } as Interceptor;
}

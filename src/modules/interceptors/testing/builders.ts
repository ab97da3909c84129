import type { Interceptor } from '../domain/interceptor.js';

const AT = new Date('2026-01-01T00:00:00.000Z');

/** A stored interceptor: a deny of every call in scope unless `spec` says otherwise. */
export function anInterceptor(name: string, spec: Partial<Interceptor> = {}): Interceptor {
  return {
    id: `interceptor-${name}`,
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
    createdAt: AT,
    updatedAt: AT,
    createdBy: 'admin',
    updatedBy: 'admin',
    version: 1,
    ...spec,
  } as Interceptor;
}

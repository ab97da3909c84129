import { Conflict, NotFound } from '../../../shared/domain-error.js';

export function interceptorNotFound(name: string): NotFound {
  return new NotFound('INTERCEPTOR_NOT_FOUND', `No interceptor named "${name.slice(0, 100)}".`);
}

export function interceptorExists(name: string): Conflict {
  return new Conflict('INTERCEPTOR_EXISTS', `An interceptor named "${name}" exists already.`, [{ path: 'name', message: 'is taken' }]);
}

export function staleInterceptorVersion(name: string): Conflict {
  return new Conflict('STALE_VERSION', `Interceptor "${name}" has changed since the version you sent; read it again and retry.`, [
    { path: 'version', message: 'is not the current version' },
  ]);
}

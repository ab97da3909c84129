import type { Interceptor } from '../../../interceptors/domain/interceptor.js';
import { commonDefaults } from '../../../interceptors/domain/interceptor-spec.js';

/** An interceptor as a file declares it: its name and kind, each common field that is not its kind's default, and its settings. */
export function exportedInterceptor(interceptor: Interceptor): Record<string, unknown> {
  const defaults = commonDefaults(interceptor.kind);
  return {
    name: interceptor.name,
    ...(interceptor.description !== defaults.description ? { description: interceptor.description } : {}),
    kind: interceptor.kind,
    ...(interceptor.phase !== defaults.phase ? { phase: interceptor.phase } : {}),
    ...(interceptor.order !== defaults.order ? { order: interceptor.order } : {}),
    ...(Object.keys(interceptor.scope).length > 0 ? { scope: interceptor.scope } : {}),
    ...(interceptor.onError !== defaults.onError ? { onError: interceptor.onError } : {}),
    ...(interceptor.timeoutMs !== defaults.timeoutMs ? { timeoutMs: interceptor.timeoutMs } : {}),
    ...(interceptor.enabled !== defaults.enabled ? { enabled: interceptor.enabled } : {}),
    ...interceptor.settings,
  };
}

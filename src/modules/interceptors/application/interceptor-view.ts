import { revisionView, type RevisionView } from '../../../shared/named-resource.js';
import type { Interceptor } from '../domain/interceptor.js';
import { flatInterceptor } from '../domain/interceptor-spec.js';

/** An interceptor as the REST API shows it: its flat form (the kind's fields beside the common ones), then its version and history. */
export type InterceptorView = Record<string, unknown> & RevisionView & {
  name: string;
  kind: string;
  phase: string;
};

export function viewOf(interceptor: Interceptor): InterceptorView {
  return {
    ...flatInterceptor(interceptor),
    name: interceptor.name,
    kind: interceptor.kind,
    phase: interceptor.phase,
    ...revisionView(interceptor),
  };
}

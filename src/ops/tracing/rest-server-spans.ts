import type { FastifyInstance } from 'fastify';
import { clientOf } from '../../shared/http/client-of.js';
import type { HttpOperation, Telemetry } from '../../shared/telemetry.js';
import { traceCarriers } from './trace-carrier.js';

const operations = new WeakMap<object, HttpOperation>();

/**
 * An HTTP SERVER span for every REST request under `/api/` (traces on), parented by its `traceparent`
 * header, so what a request does upstream (a refresh's `tools/list` pages, a registration's discovery)
 * lands in the caller's trace. Routes that make their own span (`ownSpanRoutes`, as `METHOD /path`
 * registered) are left to it.
 */
export function installRestServerSpans(fastify: FastifyInstance, telemetry: Telemetry, ownSpanRoutes: readonly string[]): void {
  if (!traceCarriers.enabled) return;
  const own = new Set(ownSpanRoutes);
  fastify.addHook('onRequest', (request, _reply, done) => {
    const template = request.routeOptions.url;
    if (!request.url.startsWith('/api/') || own.has(`${request.method} ${template}`)) {
      done();
      return;
    }
    const route = template === undefined ? undefined : template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const operation = telemetry.httpServer(request.method, route, request.url.split('?')[0]!, request.headers, clientOf(request));
    operations.set(request, operation);
    operation.run(done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    operations.get(request)?.end(reply.statusCode);
    operations.delete(request);
    done();
  });
  // A request whose client left before the answer ends its span without a status.
  fastify.addHook('onRequestAbort', (request, done) => {
    operations.get(request)?.end(undefined);
    operations.delete(request);
    done();
  });
}

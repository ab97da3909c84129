import type { LoggerService } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { registerConsoleRoutes } from './console-host/console-routes.js';
import { registerMcpRoutes } from './modules/mcp-server/http/fastify-mcp-routes.js';
import { loadAdminKey } from './modules/access/infrastructure/admin-key.js';
import { AuthGuard } from './modules/access/interface/auth.guard.js';
import { InFlightCalls } from './modules/execution/application/in-flight-calls.js';
import { GROUP_INVOKE_ROUTE, INVOKE_ROUTE } from './modules/execution/interface/invoke.controller.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { AllowedOrigins } from './shared/http/allowed-origins.js';
import { installRequestEdge, machineNames, requestIdOf } from './shared/http/request-edge.js';
import { startTracing } from './ops/tracing/tracing-sdk.js';
import { Telemetry } from './shared/telemetry.js';
import { installRestServerSpans } from './ops/tracing/rest-server-spans.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface Toolplane {
  app: NestFastifyApplication;
  url: string;
  adminKeyFile?: string;
  close(): Promise<void>;
}

/** Builds, documents and starts Toolplane; used by main and by the end-to-end tests alike. */
export async function startToolplane(config: AppConfig, logger: LoggerService | false): Promise<Toolplane> {
  const admin = await loadAdminKey(config);
  // Off unless an OTLP endpoint or a traces exporter is configured; then before anything is served.
  const tracing = await startTracing(config.tracing);
  // Closing destroys the connections still open: by then in-flight calls have drained (close() below), and
  // what remains are MCP streams (listeners, 2025-era sessions) that would otherwise hold the process.
  // Each request's id is the caller's X-Request-Id when sane (see requestIdOf), answered back and named in its logs and records.
  const adapter = new FastifyAdapter({ bodyLimit: MAX_BODY_BYTES, return503OnClosing: true, forceCloseConnections: true, multipart: false, requestIdHeader: false, genReqId: requestIdOf });
  const root = AppModule.forRoot(config, admin.key);
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: logger === false ? false : logger,
    abortOnError: false,
    // Nest would add a urlencoded parser (repeated keys become arrays): a browser form could post to the API.
    bodyParser: false,
  });
  // Host and Origin checked on every route, then JSON (and YAML for configuration files) as the only body types (anything else answers 415).
  installRequestEdge(adapter.getInstance(), {
    bodyLimit: MAX_BODY_BYTES,
    callRoutes: [INVOKE_ROUTE, GROUP_INVOKE_ROUTE],
    allowedOrigins: () =>
      config.allowedOrigins ? AllowedOrigins.of(config.allowedOrigins) : AllowedOrigins.forListener(config.host, boundPort(app, config), machineNames()),
  });
  // Every REST request under its HTTP SERVER span (traces on); invoke makes its own, which lasts as long as a streamed answer.
  installRestServerSpans(adapter.getInstance(), app.get(Telemetry), [INVOKE_ROUTE, GROUP_INVOKE_ROUTE]);
  // The MCP endpoints frame their own bodies and errors (JSON-RPC), behind the REST API's own guard.
  const guard = await app.select(root).get(ModuleRef, { strict: true }).create(AuthGuard);
  await registerMcpRoutes(app, { bodyLimit: MAX_BODY_BYTES, guard, ...(config.oidc ? { resourceUri: config.oidc.audience } : {}) });
  const oidc = config.oidc;
  registerConsoleRoutes(adapter.getInstance(), {
    ...(oidc?.consoleClientId ? { oidc: { issuer: oidc.issuer, clientId: oidc.consoleClientId, scopes: oidc.consoleScopes, resource: oidc.audience } } : {}),
  });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
  await app.listen({ port: config.port, host: config.host });
  const port = boundPort(app, config);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (admin.generated && logger) logger.log(`generated an admin API key into ${admin.file} (readable by this user only)`, 'access');
  const close = async () => {
    // New calls are refused from here on; the ones under way get the grace period to finish
    // (and be recorded), then pools, processes and finally the database are closed.
    const drained = await app.get(InFlightCalls).drain(config.shutdownGraceMs);
    if (!drained && logger) logger.warn(`calls still running after ${config.shutdownGraceMs} ms; they are cut off`, 'shutdown');
    await app.close();
    // Spans still buffered are exported before the process ends.
    await tracing?.shutdown().catch(() => undefined);
  };
  return { app, url: `http://${host}:${port}`, adminKeyFile: admin.file, close };
}

/** The port Toolplane listens on (PORT=0 picks a free one, known only once listening). */
function boundPort(app: NestFastifyApplication, config: AppConfig): number {
  const address = app.getHttpServer().address();
  return typeof address === 'object' && address ? address.port : config.port;
}

import { hostname, networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { ValidationFailed } from '../domain-error.js';
import { requestContext } from '../request-context.js';

/** A request id a caller may choose: a short token, nothing that could forge a log line. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
import type { AllowedOrigins, MachineNames } from './allowed-origins.js';
import { parseJsonBody } from './json-body.js';
import { heavySteps, isHeavyText } from '../heavy-steps.js';
import { firstHeaderValue } from './header-value.js';

export interface RequestEdgeOptions {
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /**
   * Routes (`METHOD /path` as registered, e.g. `POST /api/v1/tools/:qualifiedName/invoke`) that run tool
   * calls, which do not run in the request context (see requestContext); every MCP route is one.
   */
  callRoutes?: readonly string[];
  /** The allowed origins; asked on the first request, once the listen port is known. */
  allowedOrigins: () => AllowedOrigins;
}

/**
 * What every request meets first, before routing to REST or MCP: the `Host` and `Origin` check
 * (DNS rebinding, cross-site requests from browsers), then JSON (and YAML for configuration files)
 * as the only body types. Form, urlencoded, multipart and plain text bodies are not parsed at all:
 * they answer 415. (A cross-site page can send those without a preflight; YAML it cannot.)
 */
export function installRequestEdge(fastify: FastifyInstance, options: RequestEdgeOptions): void {
  let allowed: AllowedOrigins | undefined;
  const callRoutes = new Set(options.callRoutes ?? []);
  // A call route named here but registered under another path would run in the context unnoticed.
  fastify.addHook('onReady', async () => {
    for (const route of callRoutes) {
      const [method, url] = route.split(' ') as [string, string];
      if (!fastify.hasRoute({ method: method as 'POST', url })) throw new Error(`no route ${route} to serve outside the request context`);
    }
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    allowed ??= options.allowedOrigins();
    const refusal = originRefusal(request, allowed);
    if (refusal) {
      void refuse(request, reply, refusal);
      return;
    }
    // On the raw response: the MCP routes answer calls on it directly, past Fastify's reply.
    reply.raw.setHeader('x-request-id', request.id);
    if (isMcpPath(request.url) || callRoutes.has(`${request.method} ${request.routeOptions.url}`)) {
      done();
      return;
    }
    // Everything the request does runs in its context (request id, client address), for the records it writes.
    const { release } = requestContext.run({ requestId: request.id, clientAddress: request.ip ?? null }, () => done());
    reply.raw.once('close', release);
  });

  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: options.bodyLimit }, (_request, body, done) => {
    const text = body as string;
    // Clients often label a body-less DELETE as JSON: no bytes is no body, and a route that needs
    // one says which fields are missing.
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    const parse = () => {
      const parsed = parseJsonBody(text);
      if (parsed.ok) done(null, parsed.value);
      else done(new ValidationFailed(parsed.details, parsed.message, parsed.code), undefined);
    };
    if (isHeavyText(text)) void heavySteps.turn().then(parse);
    else parse();
  });
  // A configuration file (POST /api/v1/config/apply) arrives as YAML text; that route parses it
  // (bounded, off the event loop when large). Anywhere else a text body fails the body's checks.
  fastify.addContentTypeParser(YAML_TYPES, { parseAs: 'string', bodyLimit: options.bodyLimit }, (_request, body, done) => done(null, body));
}

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];

interface Refusal {
  code: 'FORBIDDEN_HOST' | 'FORBIDDEN_ORIGIN';
  message: string;
}

function originRefusal(request: FastifyRequest, allowed: AllowedOrigins): Refusal | undefined {
  const host = firstHeaderValue(request.headers.host);
  if (!allowed.allowsHost(host)) {
    return { code: 'FORBIDDEN_HOST', message: `Host ${quoted(host)} is not an origin Toolplane answers under (TOOLPLANE_ALLOWED_ORIGINS).` };
  }
  // Clients other than browsers send no Origin; a browser always names the page's origin (or "null").
  const origin = firstHeaderValue(request.headers.origin);
  if (origin !== undefined && !allowed.allowsOrigin(origin)) {
    return { code: 'FORBIDDEN_ORIGIN', message: `Origin ${quoted(origin)} is not allowed to call Toolplane (TOOLPLANE_ALLOWED_ORIGINS).` };
  }
  return undefined;
}

/** 403 in the shape of the endpoint: a JSON-RPC error on the MCP endpoints, the shared error shape elsewhere. */
function refuse(request: FastifyRequest, reply: FastifyReply, refusal: Refusal): FastifyReply {
  const body = isMcpPath(request.url)
    ? { jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${refusal.message}`, data: { code: refusal.code } }, id: null }
    : { error: { code: refusal.code, message: refusal.message, details: [] } };
  return reply.code(403).header('content-type', 'application/json; charset=utf-8').send(body);
}

/**
 * The request's id (Fastify's `genReqId`): the caller's `X-Request-Id` when it is a sane token,
 * else a fresh UUID. Answered back in `X-Request-Id` and named in what the request records and logs.
 */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const presented = firstHeaderValue(request.headers['x-request-id']);
  return presented !== undefined && REQUEST_ID.test(presented) ? presented : randomUUID();
}

function isMcpPath(url: string): boolean {
  return url.startsWith('/mcp') && (url.length === 4 || url[4] === '/' || url[4] === '?');
}

/** This machine's interface addresses and hostname, for the default origins when listening on every interface. */
export function machineNames(): MachineNames {
  const addresses: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) addresses.push(entry.address);
  }
  return { addresses, hostname: hostname() };
}

function quoted(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value.slice(0, 100));
}

import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { requestContext } from '../request-context.js';
import { AllowedOrigins } from './allowed-origins.js';
import { installRequestEdge, requestIdOf } from './request-edge.js';

/** What a route sees of the request context, while it answers and just after. */
async function edgeWith(callRoutes: string[]): Promise<FastifyInstance> {
  const fastify = Fastify({ requestIdHeader: false, genReqId: requestIdOf });
  const port = () => (fastify.server.address() as AddressInfo).port;
  installRequestEdge(fastify, { bodyLimit: 1024, callRoutes, allowedOrigins: () => AllowedOrigins.forListener('127.0.0.1', port(), { addresses: [], hostname: 'test' }) });
  const seen = () => ({ context: requestContext.current() ?? null });
  fastify.get('/api/v1/sources', async () => seen());
  fastify.post('/api/v1/tools/:qualifiedName/invoke', async () => seen());
  fastify.post('/mcp', async () => seen());
  fastify.post('/mcp/sources/:name', async () => seen());
  try {
    await fastify.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await fastify.close();
    throw error;
  }
  return fastify;
}

describe('the request edge', () => {
  let fastify: FastifyInstance;

  beforeAll(async () => {
    fastify = await edgeWith(['POST /api/v1/tools/:qualifiedName/invoke']);
  });

  afterAll(async () => {
    await fastify.close();
  });

  /** Over loopback, with the Host header chosen here (the listener's own unless given). */
  const send = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) => {
    const { port } = fastify.server.address() as AddressInfo;
    const body = method === 'POST' ? '{}' : undefined;
    return new Promise<{ statusCode: number; headers: Record<string, unknown>; json: () => unknown }>((resolve, reject) => {
      const sent = httpRequest({ host: '127.0.0.1', port, method, path: url, headers: { host: `127.0.0.1:${port}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ statusCode: response.statusCode!, headers: response.headers, json: () => JSON.parse(text) }));
      });
      sent.on('error', reject);
      sent.end(body);
    });
  };

  it("runs an administrative request in its context: the caller's sane X-Request-Id, and the client's address", async () => {
    const answer = await send('GET', '/api/v1/sources', { 'x-request-id': 'change-42' });
    expect(answer.headers['x-request-id']).toBe('change-42');
    expect(answer.json()).toEqual({ context: { requestId: 'change-42', clientAddress: '127.0.0.1' } });
  });

  it('makes its own id when the caller sent none or one that could forge a log line', async () => {
    for (const presented of [undefined, 'a b', 'x'.repeat(129), 'with\ttab', '{"level":60}']) {
      const answer = await send('GET', '/api/v1/sources', presented === undefined ? {} : { 'x-request-id': presented });
      const id = answer.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.json()).toEqual({ context: { requestId: id, clientAddress: '127.0.0.1' } });
    }
  });

  it('runs tool calls (the routes named, and every MCP route) outside it, still answering their id', async () => {
    for (const url of ['/api/v1/tools/ev__echo/invoke', '/mcp', '/mcp/sources/ev']) {
      const answer = await send('POST', url, { 'x-request-id': 'call-7' });
      expect(answer.headers['x-request-id']).toBe('call-7');
      expect(answer.json()).toEqual({ context: null });
    }
  });

  it('refuses a foreign Host before anything else, with no context entered', async () => {
    const answer = await send('GET', '/api/v1/sources', { host: 'evil.example' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ error: { code: 'FORBIDDEN_HOST' } });
  });
});

describe('the request edge, given a call route that does not exist', () => {
  it('refuses to start', async () => {
    const outcome = await edgeWith(['POST /api/v1/tool/:qualifiedName/invoke']).then(
      async (started) => {
        await started.close();
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(outcome).toBe('no route POST /api/v1/tool/:qualifiedName/invoke to serve outside the request context');
  });
});

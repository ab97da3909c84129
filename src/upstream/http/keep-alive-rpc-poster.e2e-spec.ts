import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { CallerDeparture } from '../../shared/caller-signal.js';
import { UpstreamError } from '../upstream-error.js';
import { KeepAliveRpcPoster, type RpcMessage } from './keep-alive-rpc-poster.js';
import { STREAM_ENDED_MARK } from './request-scoped-http-transport.js';

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A Streamable HTTP endpoint on loopback whose answer each test chooses by path, counting connections and closed requests. */
class Upstream {
  private server?: Server;
  readonly connections: number[] = [];
  closedEarly = 0;
  port = 0;

  constructor(private readonly routes: Record<string, Route>) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.routes[req.url ?? '']?.(req, res, Buffer.concat(chunks).toString('utf8')));
      res.on('close', () => {
        if (!res.writableFinished) this.closedEarly += 1;
      });
    });
    let next = 0;
    this.server.on('connection', () => this.connections.push(++next));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  poster(path: string, maxMessageBytes = 1 << 20): KeepAliveRpcPoster {
    return new KeepAliveRpcPoster(new URL(`http://127.0.0.1:${this.port}${path}`), { 'x-configured': 'yes' }, maxMessageBytes);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const request = (id: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo' } });
const answer = (id: string, text = 'hi') => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};
const sse = (res: ServerResponse, ...messages: unknown[]) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const message of messages) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
};
const until = async (check: () => boolean, ms = 3000) => {
  const stop = Date.now() + ms;
  while (!check() && Date.now() < stop) await new Promise((resolve) => setTimeout(resolve, 10));
  return check();
};

describe('KeepAliveRpcPoster', () => {
  const seen: Record<string, string | undefined>[] = [];
  const upstream = new Upstream({
    '/json': (req, res, body) => {
      seen.push({ configured: req.headers['x-configured'] as string, session: req.headers['mcp-session-id'] as string, type: req.headers['content-type'] });
      json(res, 200, answer((JSON.parse(body) as { id: string }).id));
    },
    '/batch': (_req, res, body) => {
      const { id } = JSON.parse(body) as { id: string };
      json(res, 200, [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'note' } }, answer(id)]);
    },
    '/sse-then-hang': (_req, res, body) => {
      const { id } = JSON.parse(body) as { id: string };
      sse(res, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } }, answer(id));
      // The stream stays open: the poster gives the connection up after its grace period.
    },
    '/sse-no-answer': (_req, res) => {
      sse(res, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
      res.end();
    },
    '/fail': (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('down for maintenance');
    },
    '/rpc-error': (_req, res, body) => {
      const { id } = JSON.parse(body) as { id: string };
      json(res, 400, { jsonrpc: '2.0', id, error: { code: -32602, message: 'bad params' } });
    },
    '/html': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html></html>');
    },
    '/big-announced': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.end(JSON.stringify({ padding: 'x'.repeat(4980) }).slice(0, 5000).padEnd(5000, ' '));
    },
    '/big-chunked': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write('x'.repeat(1000));
      res.end();
    },
    '/slow': () => {
      // never answers: the caller cancels
    },
    '/accept': (_req, res) => {
      res.writeHead(202);
      res.end();
    },
    '/missing': (_req, res) => {
      res.writeHead(404);
      res.end('no');
    },
  });
  const posters: KeepAliveRpcPoster[] = [];
  const make = (path: string, maxMessageBytes?: number) => {
    const poster = upstream.poster(path, maxMessageBytes);
    posters.push(poster);
    return poster;
  };
  const call = (poster: KeepAliveRpcPoster, id: string, extra: Partial<Parameters<KeepAliveRpcPoster['call']>[2]> = {}) =>
    poster.call(id, request(id), { headers: {}, signal: new CallerDeparture(), ...extra });

  beforeAll(() => upstream.start());
  afterAll(async () => {
    posters.forEach((poster) => poster.close());
    await upstream.stop();
  });

  it('answers with the JSON response, sends the configured and per-request headers, and keeps its connections', async () => {
    const poster = make('/json');
    const before = upstream.connections.length;
    await expect(call(poster, 'a', { headers: { 'mcp-session-id': 's-1' } })).resolves.toEqual(answer('a'));
    expect(seen.at(-1)).toEqual({ configured: 'yes', session: 's-1', type: 'application/json' });
    for (let i = 0; i < 10; i++) await expect(call(poster, `b${i}`)).resolves.toEqual(answer(`b${i}`));
    // A connection is free again a moment after its answer is handed over: calls one after another use at most two.
    expect(upstream.connections.length - before).toBeLessThanOrEqual(2);
  });

  it('hands every other message of a JSON batch to onMessage', async () => {
    const heard: RpcMessage[] = [];
    await expect(call(make('/batch'), 'c', { onMessage: (message) => heard.push(message) })).resolves.toEqual(answer('c'));
    expect(heard).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'note' } }]);
  });

  it('answers from an SSE stream, hears what came before, and gives up a stream left open after the answer', async () => {
    const heard: RpcMessage[] = [];
    const closedBefore = upstream.closedEarly;
    await expect(call(make('/sse-then-hang'), 'd', { onMessage: (message) => heard.push(message) })).resolves.toEqual(answer('d'));
    expect(heard).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'd', progress: 1 } }]);
    expect(await until(() => upstream.closedEarly > closedBefore)).toBe(true);
  });

  it('fails a stream that ends without the answer', async () => {
    const failure = await call(make('/sse-no-answer'), 'e').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).data).toEqual({ [STREAM_ENDED_MARK]: true });
  });

  it('turns an HTTP error into the SDK transport’s error, with the body', async () => {
    const failure = await call(make('/fail'), 'f').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkHttpError);
    expect(failure).toMatchObject({ status: 503, message: expect.stringContaining('down for maintenance') as unknown });
  });

  it('takes a 2026-07-28 HTTP 400 carrying the request’s JSON-RPC error as the answer, and only where told so', async () => {
    await expect(call(make('/rpc-error'), 'g', { errorBodyIsAnswer: true })).resolves.toEqual({ jsonrpc: '2.0', id: 'g', error: { code: -32602, message: 'bad params' } });
    await expect(call(make('/rpc-error'), 'h')).rejects.toBeInstanceOf(SdkHttpError);
  });

  it('refuses a response that is neither JSON nor an event stream', async () => {
    const failure = await call(make('/html'), 'i').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe(SdkErrorCode.ClientHttpUnexpectedContent);
  });

  it('fails a message over the limit, announced or not, without buffering it', async () => {
    for (const path of ['/big-announced', '/big-chunked']) {
      const failure = await call(make(path, 2000), 'j').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(UpstreamError);
      expect(failure).toMatchObject({ kind: 'limit' });
    }
  });

  it('closes the request’s connection when its caller cancels, and sends nothing once cancelled', async () => {
    const poster = make('/slow');
    const signal = new CallerDeparture();
    const closedBefore = upstream.closedEarly;
    const pending = call(poster, 'k', { signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    signal.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await until(() => upstream.closedEarly > closedBefore)).toBe(true);

    const connectionsBefore = upstream.connections.length;
    const early = make('/json');
    const gone = new CallerDeparture();
    gone.abort();
    await expect(call(early, 'l', { signal: gone })).rejects.toMatchObject({ name: 'AbortError' });
    expect(upstream.connections.length).toBe(connectionsBefore);
  });

  it('sends notifications: accepted on a 2xx, an error otherwise', async () => {
    await expect(make('/accept').send('{"jsonrpc":"2.0","method":"notifications/cancelled"}', {}, new CallerDeparture())).resolves.toBeUndefined();
    await expect(make('/missing').send('{}', {}, new CallerDeparture())).rejects.toMatchObject({ status: 404 });
  });

  it('fails the calls under way when it is closed, as on a reset connection', async () => {
    const poster = upstream.poster('/slow');
    const pending = call(poster, 'n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    poster.close();
    await expect(pending).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('keeps the system error code of a connection that fails', async () => {
    const closed = new Upstream({});
    await closed.start();
    const poster = closed.poster('/mcp');
    posters.push(poster);
    await closed.stop();
    await expect(call(poster, 'm')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

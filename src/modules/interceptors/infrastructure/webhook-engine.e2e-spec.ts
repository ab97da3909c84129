import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { hostPolicyLists } from '../../../shared/host-policy.js';
import { InMemorySecretRepository } from '../../secrets/testing/in-memory-secret-repository.js';
import type { InterceptedCall } from '../domain/intercepted-call.js';
import type { InterceptorPhase, InterceptorSpec } from '../domain/interceptor.js';
import { WebhookEngine } from './webhook-engine.js';
import { expectNoSuiteProcesses, SUITE_TAG } from '../../../../test/helpers/processes.js';

const KEY = 'whsec-3c1f9a7e-not-in-any-message';
const EXAMPLE = fileURLToPath(new URL('../../../../docs/examples/interceptor-webhook.mjs', import.meta.url));

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP server answering each request with `respond`, recording what it was sent and how many connections it took. */
class LoopbackServer {
  readonly seen: Seen[] = [];
  connections = 0;
  closedRequests = 0;
  private readonly server: Server;

  constructor(public respond: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.seen.push(seen);
        res.on('close', () => (this.closedRequests += 1));
        this.respond(req, res, seen);
      });
    });
    this.server.on('connection', () => (this.connections += 1));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(host = '127.0.0.1'): string {
    return `http://${host}:${this.port}/hook?x=1`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const json = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

function spec(url: string, overrides: { phase?: InterceptorPhase; signingSecret?: string; name?: string } = {}): InterceptorSpec {
  return {
    name: overrides.name ?? 'policy',
    description: '',
    phase: overrides.phase ?? 'pre',
    order: 0,
    scope: {},
    onError: 'deny',
    timeoutMs: 2000,
    enabled: true,
    kind: 'webhook',
    settings: { url, signingSecret: overrides.signingSecret ?? 'hook-key' },
  };
}

function call(overrides: Partial<InterceptedCall> = {}): InterceptedCall {
  return {
    executionId: '0190f0c2-7a1b-7c3d-8e4f-000000000001',
    tool: {
      qualifiedName: 'files__read_file',
      name: 'read_file',
      sourceName: 'files',
      inputSchema: { type: 'object' },
      outputSchema: null,
      annotations: { readOnlyHint: true },
      description: 'Reads a file',
    },
    group: 'ops',
    principal: { id: 'key-1', name: 'ci' },
    channel: 'rest',
    arguments: { path: '/tmp/a.txt', limit: 10 },
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ...overrides,
  };
}

const postCall = (overrides: Partial<InterceptedCall> = {}) =>
  call({ result: { content: [{ type: 'text', text: 'hello' }], structuredContent: { n: 1 }, truncated: false, originalBytes: 40 }, isError: false, ...overrides });

const signal = () => new AbortController().signal;

function engineWith(deny = 'default', options: { secrets?: Record<string, string>; clock?: () => Date } = {}): WebhookEngine {
  const secrets = new InMemorySecretRepository(options.secrets ?? { 'hook-key': KEY });
  const clock = options.clock ? { now: options.clock } : undefined;
  return new WebhookEngine(secrets, { sourceHosts: hostPolicyLists(undefined, deny).lists }, clock);
}

/** Runs and answers the Error it failed with; fails the test when it did not fail. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(KEY);
    return error as Error;
  }
  throw new Error('expected the run to fail');
}

describe('WebhookEngine', () => {
  const engines: WebhookEngine[] = [];
  const servers: LoopbackServer[] = [];
  const engine = (...args: Parameters<typeof engineWith>) => {
    const made = engineWith(...args);
    engines.push(made);
    return made;
  };
  const server = (respond: LoopbackServer['respond']) => {
    const made = new LoopbackServer(respond);
    servers.push(made);
    return made.start();
  };

  afterAll(async () => {
    await Promise.all(engines.map((made) => made.onApplicationShutdown()));
    await Promise.all(servers.map((made) => made.close()));
  });

  describe('answers', () => {
    it('allow: POSTs the signed call with its headers, and allows', async () => {
      const hook = await server(json(200, { decision: 'allow' }));
      const before = Math.floor(Date.now() / 1000);
      await expect(engine().run(spec(hook.url()), 'pre', call(), signal())).resolves.toEqual({ decision: 'allow' });
      const [seen] = hook.seen;
      expect(seen).toMatchObject({ method: 'POST', url: '/hook?x=1' });
      expect(seen!.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': expect.stringMatching(/^Toolplane\/\d+\.\d+\.\d+/),
        'toolplane-interceptor': 'policy',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      });
      const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(seen!.headers['toolplane-signature']));
      expect(signature).not.toBeNull();
      const t = Number(signature![1]);
      expect(t).toBeGreaterThanOrEqual(before);
      expect(t).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      expect(signature![2]).toBe(createHmac('sha256', KEY).update(`${t}.${seen!.body}`).digest('hex'));
      expect(JSON.parse(seen!.body)).toEqual({
        version: 1,
        phase: 'pre',
        executionId: '0190f0c2-7a1b-7c3d-8e4f-000000000001',
        interceptor: 'policy',
        tool: { qualifiedName: 'files__read_file', name: 'read_file', source: 'files', annotations: { readOnlyHint: true } },
        group: 'ops',
        principal: { id: 'key-1', name: 'ci' },
        channel: 'rest',
        arguments: { path: '/tmp/a.txt', limit: 10 },
        trace: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      });
    });

    it('deny: passes the message on', async () => {
      const hook = await server(json(200, { decision: 'deny', message: 'not on Fridays' }));
      await expect(engine().run(spec(hook.url()), 'pre', call(), signal())).resolves.toEqual({ decision: 'deny', message: 'not on Fridays' });
    });

    it('modify (pre): the arguments it answers, with the names changed, added or removed', async () => {
      const hook = await server(json(200, { decision: 'modify', arguments: { path: '/tmp/b.txt', mode: 'r' } }));
      await expect(engine().run(spec(hook.url()), 'pre', call(), signal())).resolves.toEqual({
        decision: 'modify',
        arguments: { path: '/tmp/b.txt', mode: 'r' },
        changes: { paths: ['arguments.limit', 'arguments.mode', 'arguments.path'] },
      });
    });

    it('modify (post): sends the result, and maps the one it answers into a result of its measured size', async () => {
      const content = [{ type: 'text', text: 'hello, [redacted]' }, { type: 'resource', resource: { uri: 'file:///a', text: 'x' } }];
      const hook = await server(json(200, { decision: 'modify', result: { content, structuredContent: { ok: true }, isError: true } }));
      const verdict = await engine().run(spec(hook.url(), { phase: 'post' }), 'post', postCall({ group: null, traceparent: undefined }), signal());
      expect(verdict).toEqual({
        decision: 'modify',
        result: { content, structuredContent: { ok: true }, truncated: false, originalBytes: Buffer.byteLength(JSON.stringify(content)) + Buffer.byteLength('{"ok":true}') },
        isError: true,
        changes: { paths: ['result'] },
      });
      const sent = JSON.parse(hook.seen[0]!.body);
      expect(sent).toMatchObject({ phase: 'post', group: null, trace: { traceparent: null }, result: { content: [{ type: 'text', text: 'hello' }], structuredContent: { n: 1 }, isError: false, truncated: false } });
      expect(hook.seen[0]!.headers.traceparent).toBeUndefined();
    });

    it('keeps the connection to an origin alive across calls', async () => {
      const hook = await server(json(200, { decision: 'allow' }));
      const running = engine();
      for (let i = 0; i < 20; i++) await running.run(spec(hook.url()), 'pre', call(), signal());
      expect(hook.seen).toHaveLength(20);
      // The second call may find the first connection not yet free and open another; then both are reused.
      expect(hook.connections).toBeLessThanOrEqual(2);
    });
  });

  describe('the example policy service of docs/examples', () => {
    let child: ChildProcess;
    let base: string;

    beforeAll(async () => {
      child = spawn(process.execPath, [EXAMPLE, SUITE_TAG], { env: { PATH: process.env.PATH, WEBHOOK_SECRET: KEY, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (\d+)/.exec(out);
          if (match) resolve(Number(match[1]));
        });
        child.once('exit', (code) => reject(new Error(`the example exited (${code})`)));
      });
      base = `http://127.0.0.1:${port}/`;
    });

    afterAll(async () => {
      child.kill();
      await expectNoSuiteProcesses();
    });

    it('verifies a good signature and decides: /etc and what resolves under it denied, the rest allowed', async () => {
      const running = engine();
      for (const path of ['/etc/passwd', '/tmp/../etc/shadow', '//etc']) {
        expect(await running.run(spec(base), 'pre', call({ arguments: { path } }), signal())).toEqual({ decision: 'deny', message: `${path} is under /etc, which tools may not touch` });
      }
      for (const path of ['/home/me/notes.txt', '/etcetera']) expect(await running.run(spec(base), 'pre', call({ arguments: { path } }), signal())).toEqual({ decision: 'allow' });
      expect(await running.run(spec(base, { phase: 'post' }), 'post', postCall({ arguments: { path: '/etc/hosts' } }), signal())).toEqual({ decision: 'allow' });
    });

    it('rejects a wrong key and a stale timestamp with 401, and the engine fails', async () => {
      const wrongKey = engine('default', { secrets: { 'hook-key': 'another key' } });
      expect((await failure(wrongKey.run(spec(base), 'pre', call(), signal()))).message).toBe('the webhook answered HTTP 401');
      const sixMinutesAgo = engine('default', { clock: () => new Date(Date.now() - 360_000) });
      expect((await failure(sixMinutesAgo.run(spec(base), 'pre', call(), signal()))).message).toBe('the webhook answered HTTP 401');
      const fourMinutesAgo = engine('default', { clock: () => new Date(Date.now() - 240_000) });
      await expect(fourMinutesAgo.run(spec(base), 'pre', call(), signal())).resolves.toEqual({ decision: 'allow' });
    });

    it('rejects a tampered body with 401', async () => {
      const body = JSON.stringify({ version: 1, phase: 'pre', arguments: { path: '/tmp/x' } });
      const t = Math.floor(Date.now() / 1000);
      const signature = `t=${t},v1=${createHmac('sha256', KEY).update(`${t}.${body}`).digest('hex')}`;
      const send = (sent: string) => fetch(base, { method: 'POST', headers: { 'content-type': 'application/json', 'toolplane-signature': signature }, body: sent });
      expect((await send(body)).status).toBe(200);
      expect((await send(body.replace('/tmp/x', '/etc/x'))).status).toBe(401);
    });
  });

  describe('failures', () => {
    it('a 500', async () => {
      const hook = await server(json(500, { decision: 'allow' }));
      expect((await failure(engine().run(spec(hook.url()), 'pre', call(), signal()))).message).toBe('the webhook answered HTTP 500');
    });

    it('a server that never answers: the signal stops the request and closes it', async () => {
      const hook = await server(() => undefined);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException('timed out after 300 ms', 'TimeoutError')), 300);
      const started = Date.now();
      const error = await failure(engine().run(spec(hook.url()), 'pre', call(), controller.signal));
      expect(error.message).toBe('the request to the webhook was stopped: timed out after 300 ms');
      expect(Date.now() - started).toBeLessThan(2000);
      await waitFor(() => hook.closedRequests === 1);
      // Or one that starts its answer and never ends it.
      const halfway = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{"decision":'));
      const stopping = new AbortController();
      setTimeout(() => stopping.abort(new DOMException('timed out after 300 ms', 'TimeoutError')), 300);
      expect((await failure(engine().run(spec(halfway.url()), 'pre', call(), stopping.signal))).message).toBe('the request to the webhook was stopped: timed out after 300 ms');
      await waitFor(() => halfway.closedRequests === 1);
    });

    it('a body that is not JSON, or not of a JSON type', async () => {
      const garbage = await server(json(200, 'garbage {'));
      expect((await failure(engine().run(spec(garbage.url()), 'pre', call(), signal()))).message).toBe("the webhook's answer is not JSON");
      const html = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('{"decision":"allow"}'));
      expect((await failure(engine().run(spec(html.url()), 'pre', call(), signal()))).message).toBe('the webhook\'s answer is not JSON (Content-Type "text/html")');
    });

    it('a body over 1 MiB, announced or streamed', async () => {
      const large = JSON.stringify({ decision: 'deny', message: 'x'.repeat(1024 * 1024) });
      const announced = await server(json(200, large));
      expect((await failure(engine().run(spec(announced.url()), 'pre', call(), signal()))).message).toBe("the webhook's answer is larger than the 1 MiB limit");
      const streamed = await server((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 24; i++) res.write(chunk);
        res.end();
      });
      expect((await failure(engine().run(spec(streamed.url()), 'pre', call(), signal()))).message).toBe("the webhook's answer is larger than the 1 MiB limit");
    });

    it('a redirect, not followed', async () => {
      const elsewhere = await server(json(200, { decision: 'allow' }));
      const hook = await server((_req, res) => res.writeHead(307, { location: elsewhere.url() }).end());
      expect((await failure(engine().run(spec(hook.url()), 'pre', call(), signal()))).message).toBe('the webhook answered a redirect (HTTP 307); redirects are not followed');
      expect(elsewhere.seen).toHaveLength(0);
    });

    it('a field of the other phase, an unknown decision, wrong types', async () => {
      const answering = async (answer: unknown, phase: InterceptorPhase) => {
        const hook = await server(json(200, answer));
        return (await failure(engine().run(spec(hook.url(), { phase }), phase, phase === 'pre' ? call() : postCall(), signal()))).message;
      };
      expect(await answering({ decision: 'modify', result: { content: [] } }, 'pre')).toMatch(/a pre webhook may not answer a result, only arguments/);
      expect(await answering({ decision: 'modify', arguments: { path: '/x' } }, 'post')).toMatch(/a post webhook may not answer arguments, only a result/);
      expect(await answering({ decision: 'maybe' }, 'pre')).toBe('the webhook\'s answer has an unknown decision (expected "allow", "deny" or "modify")');
      expect(await answering({ decision: 'deny', message: 42 }, 'pre')).toMatch(/decision "deny" needs a message: a string of 1 to 2,000 characters/);
      expect(await answering({ decision: 'deny', message: 'x'.repeat(2001) }, 'pre')).toMatch(/needs a message/);
      expect(await answering({ decision: 'modify', arguments: ['/x'] }, 'pre')).toMatch(/needs arguments: a JSON object/);
      expect(await answering({ decision: 'modify', result: { content: [{ type: 'text' }, { type: 'video' }], isError: 'yes' } }, 'post')).toBe(
        "the webhook's answer is not usable: result.content[0] needs text (a string); result.content[1] has no known type (text, image, audio, resource_link, resource); result.isError must be a boolean",
      );
    });

    it('a URL whose host the source host policy denies: nothing is sent', async () => {
      const hook = await server(json(200, { decision: 'allow' }));
      expect((await failure(engine('127.0.0.1').run(spec(hook.url()), 'pre', call(), signal()))).message).toBe(
        'connection refused by the source host policy: 127.0.0.1 is denied (TOOLPLANE_SOURCE_HOSTS_DENY)',
      );
      // A name is checked on what it resolves to, when the socket connects.
      expect((await failure(engine('127.0.0.0/8,::1').run(spec(hook.url('localhost')), 'pre', call(), signal()))).message).toMatch(
        /^connection refused by the source host policy: localhost resolves to (127\.0\.0\.1|::1), which is denied/,
      );
      expect((await failure(engine().run(spec('http://169.254.169.254/latest/meta-data'), 'pre', call(), signal()))).message).toBe(
        'connection refused by the source host policy: 169.254.169.254 is denied (TOOLPLANE_SOURCE_HOSTS_DENY)',
      );
      expect(hook.seen).toHaveLength(0);
      // The same host where the policy allows it.
      await expect(engine('default').run(spec(hook.url('localhost')), 'pre', call(), signal())).resolves.toEqual({ decision: 'allow' });
    });

    it('a signing secret that does not exist: nothing is sent', async () => {
      const hook = await server(json(200, { decision: 'allow' }));
      expect((await failure(engine().run(spec(hook.url(), { signingSecret: 'gone' }), 'pre', call(), signal()))).message).toBe('the signing secret "gone" does not exist');
      expect(hook.seen).toHaveLength(0);
    });
  });

  it('any JSON answer gives a verdict or an Error, nothing else', async () => {
    let answer = '';
    const hook = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    const running = engine();
    const content = fc.array(fc.oneof(fc.record({ type: fc.constant('text'), text: fc.string() }), fc.jsonValue({ maxDepth: 2 })), { maxLength: 3 });
    const answers = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record(
        {
          decision: fc.oneof(fc.constantFrom('allow', 'deny', 'modify'), fc.jsonValue({ maxDepth: 1 })),
          message: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
          arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 2 })),
          result: fc.oneof(fc.record({ content, structuredContent: fc.jsonValue({ maxDepth: 2 }), isError: fc.jsonValue({ maxDepth: 0 }) }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 2 })),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(answers, fc.constantFrom<InterceptorPhase>('pre', 'post'), async (value, phase) => {
        answer = JSON.stringify(value);
        const outcome = await running.run(spec(hook.url(), { phase }), phase, phase === 'pre' ? call() : postCall(), signal()).then(
          (verdict) => ({ verdict }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          expect(outcome.error).toBeInstanceOf(Error);
          expect((outcome.error as Error).message).toMatch(/^the webhook's answer /);
          return;
        }
        const { verdict } = outcome;
        expect(['allow', 'deny', 'modify']).toContain(verdict.decision);
        if (verdict.decision === 'deny') expect(typeof verdict.message).toBe('string');
        if (verdict.decision === 'modify') expect(phase === 'pre' ? verdict.arguments : verdict.result?.content).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });
});

async function waitFor(condition: () => boolean, withinMs = 2000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

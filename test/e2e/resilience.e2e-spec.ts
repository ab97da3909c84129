import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, freePort, startCountingProxy, startHttpUpstream, type CountingProxy, type RunningUpstream } from '../helpers/upstreams.js';

const ECHO = join(FIXTURES, 'http-echo-server.mjs');
const FAULTY = join(FIXTURES, 'faulty-server.mjs');
const MODERN = join(FIXTURES, 'modern-server.mjs');

describe('resilience: circuit breaker, retries, bulkhead, cancellation, multi round-trip', () => {
  let h: Harness;
  let upstreamPort: number;
  let upstream: RunningUpstream | undefined;
  let proxy: CountingProxy;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-resilience-'));
  // The sandboxed plugin (an unprivileged user) writes its cancellation log here.
  chmodSync(dir, 0o777);
  const cancelLog = join(dir, 'cancel.log');

  const invoke = (name: string, body: unknown, init?: { signal?: AbortSignal }) =>
    init?.signal
      ? fetch(`${h.url}/api/v1/tools/${name}/invoke`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: init.signal,
        })
      : h.api.post(`/api/v1/tools/${name}/invoke`, body);
  const startUpstream = async () => (upstream = await startHttpUpstream((port) => [ECHO, '--port', String(port), SUITE_TAG], '/mcp', {}, upstreamPort));
  const circuit = async () => (await h.api.get('/api/v1/sources/echo')).body.circuit;

  beforeAll(async () => {
    // A small waiting room, so that refusals beyond it are quick to provoke.
    h = await startHarness({ TOOLPLANE_SOURCE_QUEUE_LIMIT: '16' });
    upstreamPort = await freePort();
    await startUpstream();
    proxy = await startCountingProxy(upstreamPort);
    const created = await h.api.post('/api/v1/sources', {
      name: 'echo',
      transport: 'streamable-http',
      url: proxy.url,
      circuitBreaker: { failureThreshold: 2, resetTimeoutMs: 1500 },
      refreshIntervalSeconds: 0,
    });
    expect(created.body).toMatchObject({ health: 'healthy', circuit: { state: 'closed' } });
    for (const source of [
      { name: 'faulty', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [FAULTY, SUITE_TAG], env: { CANCEL_LOG: cancelLog }, sandbox: { writablePaths: [dir] }, maxConcurrency: 1 },
      { name: 'modern', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [MODERN, 'stdio', SUITE_TAG], env: { EXTRA_TOOLS: '1' } },
    ]) {
      expect((await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source })).body.health).toBe('healthy');
    }
  });

  afterAll(async () => {
    await h.close();
    await upstream?.stop();
    await proxy.stop();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  it('opens the circuit on transport failures, keeps calls off the upstream while open, half-opens and closes', async () => {
    expect((await invoke('echo__echo', { arguments: { message: 'up' } })).body.status).toBe('succeeded');
    await upstream!.stop();

    // echo is readOnly: each failing call is retried (3 attempts) before it counts once.
    const first = await invoke('echo__echo', { arguments: { message: 'down' } });
    expect([first.status, first.body.execution.status, first.body.execution.attempts]).toEqual([502, 'upstream_error', 3]);
    expect(await circuit()).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
    await invoke('echo__echo', { arguments: { message: 'down' } });
    expect(await circuit()).toMatchObject({ state: 'open', consecutiveFailures: 2 });

    await startUpstream();
    const before = proxy.count();
    const refused = await invoke('echo__echo', { arguments: { message: 'while open' } });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('CIRCUIT_OPEN');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.execution).toMatchObject({ status: 'circuit_open', attempts: 0 });
    expect(proxy.count()).toBe(before); // never reached the upstream

    await new Promise((r) => setTimeout(r, 1600));
    expect((await circuit()).state).toBe('half_open');
    const trial = await invoke('echo__echo', { arguments: { message: 'trial' } });
    expect(trial.body.status).toBe('succeeded');
    expect(await circuit()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(proxy.count()).toBeGreaterThan(before);
  });

  it('reopens when the half-open trial fails', async () => {
    await upstream!.stop();
    await invoke('echo__echo', { arguments: { message: 'x' } });
    await invoke('echo__echo', { arguments: { message: 'x' } });
    expect((await circuit()).state).toBe('open');
    await new Promise((r) => setTimeout(r, 1600));
    const trial = await invoke('echo__echo', { arguments: { message: 'x' } });
    expect(trial.body.execution.status).toBe('upstream_error');
    expect((await circuit()).state).toBe('open');
    await startUpstream();
  });

  it('queues beyond maxConcurrency and refuses beyond the queue with 429', async () => {
    // maxConcurrency 1: one runs, 16 wait, the rest are refused at once.
    const calls = Array.from({ length: 20 }, () => invoke('faulty__slow', { arguments: { ms: 300 }, timeoutMs: 20_000 }));
    const answers = (await Promise.all(calls)) as { status: number; body: any; headers: Headers }[];
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(3);
    for (const r of refused) {
      expect(r.body.error.code).toBe('CONCURRENCY_LIMIT');
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.execution.status).toBe('rejected');
    }
    expect(answers.filter((a) => a.status === 200)).toHaveLength(17);
  });

  it('cancels the upstream call when the caller goes away', async () => {
    const abort = new AbortController();
    const pending = (invoke('faulty__slow', { arguments: { ms: 5000 } }, { signal: abort.signal }) as Promise<Response>).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 400));
    abort.abort();
    expect(await pending).toHaveProperty('name', 'AbortError');
    const deadline = Date.now() + 5000;
    let rows: any[] = [];
    while (Date.now() < deadline) {
      rows = await h.sql(`SELECT status FROM executions WHERE qualified_name = 'faulty__slow' AND status = 'cancelled'`);
      if (rows.length > 0 && readLog(cancelLog).includes('cancelled')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toHaveLength(1);
    expect(readLog(cancelLog)).toMatch(/cancelled \S+ by notification/);
  });

  it('passes a 2026-07-28 input request to the REST caller and continues the same call with the answer', async () => {
    const asked = await invoke('modern__confirm', { arguments: { action: 'deploy' } });
    expect(asked.status).toBe(200);
    expect(asked.body.status).toBe('input_required');
    expect(Object.keys(asked.body.result.inputRequests)).toEqual(['confirm']);
    const answered = await invoke('modern__confirm', {
      arguments: { action: 'deploy' },
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: asked.body.result.requestState,
    });
    expect(answered.body.status).toBe('succeeded');
    expect(JSON.stringify(answered.body.result.content)).toContain('deploy');
  });

  it('lists and summarizes the history over REST', async () => {
    for (let i = 0; i < 3; i++) await invoke('echo__echo', { arguments: { message: `history ${i}` } });
    const list = await h.api.get('/api/v1/executions?tool=echo__echo&limit=2');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    const next = await h.api.get(`/api/v1/executions?tool=echo__echo&limit=2&cursor=${list.body.nextCursor}`);
    expect(next.body.items[0].startedAt <= list.body.items[1].startedAt).toBe(true);
    const one = await h.api.get(`/api/v1/executions/${list.body.items[0].id}`);
    expect(one.body.id).toBe(list.body.items[0].id);
    const succeeded = await h.api.get('/api/v1/executions?status=succeeded&source=echo');
    expect(succeeded.body.items.length).toBeGreaterThanOrEqual(3);
    expect(succeeded.body.items.every((e: { status: string }) => e.status === 'succeeded')).toBe(true);
    const stats = await h.api.get('/api/v1/executions/stats?groupBy=source');
    const echo = stats.body.groups.find((g: { sourceName: string }) => g.sourceName === 'echo');
    expect(echo).toMatchObject({ count: expect.any(Number), p95DurationMs: expect.any(Number) });
    expect((await h.api.get('/api/v1/executions?status=nope')).status).toBe(400);
  });
});

/** The fixture writes its log only once it sees the cancellation. */
function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { makeApi, startHarness, type Api, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const FAULTY = join(FIXTURES, 'faulty-server.mjs');
const ASYNC = { prefer: 'respond-async' };
const WAITING = ['working', 'pending_approval'];

interface Sse {
  status: number;
  contentType: string | null;
  events: { event: string; data: any; at: number }[];
  comments: number;
  text: string;
}

/**
 * Asynchronous REST calls: `Prefer: respond-async` on an invoke answers 202 with the execution
 * still working and where to find it; the execution is polled, followed as Server-Sent Events,
 * or cancelled (the upstream told), by its own caller only — against real PostgreSQL,
 * server-everything (its long-running operation reports progress) and a fixture that logs how it
 * was cancelled.
 */
describe('asynchronous REST invoke', () => {
  let h: Harness;
  let alice: Api;
  let bob: Api;
  let auditor: Api;
  let keys: Record<'alice' | 'bob' | 'auditor', string>;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-async-'));
  chmodSync(dir, 0o777);
  const cancelLog = join(dir, 'cancel.log');

  const invoke = (api: Api, tool: string, body: unknown, headers: Record<string, string> = ASYNC) => api.request('POST', `/api/v1/tools/${tool}/invoke`, body, { headers });
  const execution = (api: Api, id: string) => api.get(`/api/v1/executions/${id}`);
  const cancel = (api: Api, id: string) => api.post(`/api/v1/executions/${id}/cancel`);

  /** Polls the execution until it is final; answers the final view and the statuses seen on the way. */
  async function pollUntilFinal(api: Api, location: string, timeoutMs = 15_000): Promise<{ final: any; seen: string[] }> {
    const seen: string[] = [];
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const answer = await api.get(location);
      expect(answer.status).toBe(200);
      if (seen.at(-1) !== answer.body.status) seen.push(answer.body.status);
      if (!WAITING.includes(answer.body.status)) return { final: answer.body, seen };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`still ${seen.at(-1)} after ${timeoutMs} ms`);
  }

  async function events(key: string, id: string, signal?: AbortSignal): Promise<Sse> {
    const started = Date.now();
    const response = await fetch(`${h.url}/api/v1/executions/${id}/events`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal });
    const found: Sse['events'] = [];
    let comments = 0;
    let text = '';
    const decoder = new TextDecoder();
    const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while (streamed && (end = text.indexOf('\n\n')) !== -1) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        if (block.startsWith(':')) comments++;
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) found.push({ event, data: JSON.parse(data), at: Date.now() - started });
      }
    }
    return { status: response.status, contentType: response.headers.get('content-type'), events: found, comments, text };
  }

  const readLog = () => (existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '');

  beforeAll(async () => {
    h = await startHarness();
    const sources = [
      { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] },
      { name: 'faulty', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [FAULTY, SUITE_TAG], env: { CANCEL_LOG: cancelLog }, sandbox: { writablePaths: [dir] } },
    ];
    for (const source of sources) expect((await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source })).body).toMatchObject({ name: source.name, health: 'healthy' });
    expect((await h.api.post('/api/v1/groups', { name: 'team', include: ['ev__echo'] })).status).toBe(201);
    keys = {} as typeof keys;
    for (const [name, role] of [['alice', 'agent'], ['bob', 'agent'], ['auditor', 'auditor']] as const) keys[name] = (await h.api.post('/api/v1/api-keys', { name, role })).body.key;
    alice = makeApi(h.url, keys.alice);
    bob = makeApi(h.url, keys.bob);
    auditor = makeApi(h.url, keys.auditor);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  it('answers 202 with the working execution and where it is, then the execution ends on its own', async () => {
    const accepted = await invoke(alice, 'ev__trigger-long-running-operation', { arguments: { duration: 1, steps: 2 } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ qualifiedName: 'ev__trigger-long-running-operation', status: 'working', channel: 'rest', caller: { principalName: 'alice' }, result: null, error: null });
    const location = accepted.headers.get('location');
    expect(location).toBe(`/api/v1/executions/${accepted.body.id}`);
    expect(accepted.headers.get('preference-applied')).toBe('respond-async');

    const { final, seen } = await pollUntilFinal(alice, location!);
    expect(seen[0]).toBe('working');
    expect(final).toMatchObject({ id: accepted.body.id, status: 'succeeded', result: { content: [{ type: 'text', text: expect.stringContaining('Long running operation completed') }] } });
    const rows = await h.sql<{ status: string }>('SELECT status FROM executions WHERE id = $1', [accepted.body.id]);
    expect(rows).toEqual([{ status: 'succeeded' }]);
  });

  it('answers a call refused before it would run as without the preference, and makes no task of it', async () => {
    const unknown = await invoke(alice, 'ev__no_such_tool', { arguments: {} });
    const invalid = await invoke(alice, 'ev__echo', { arguments: { message: 5 } });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'TOOL_NOT_FOUND']);
    expect([invalid.status, invalid.body.execution.status]).toEqual([400, 'invalid_arguments']);
    for (const answer of [unknown, invalid]) {
      expect([answer.headers.get('preference-applied'), answer.headers.get('location')]).toEqual([null, null]);
      expect(await h.sql('SELECT id FROM execution_tasks WHERE id = $1', [answer.body.execution.id])).toEqual([]);
    }
  });

  it('lists a working call among the executions, to who may see it, until its final record takes its place', async () => {
    const accepted = await invoke(alice, 'ev__trigger-long-running-operation', { arguments: { duration: 1.5, steps: 2 } });
    expect(accepted.status).toBe(202);
    const id = accepted.body.id;
    const working = await alice.get('/api/v1/executions?status=working');
    expect(working.body.items).toEqual([expect.objectContaining({ id, status: 'working', qualifiedName: 'ev__trigger-long-running-operation', sourceName: 'ev', result: null })]);
    expect((await alice.get('/api/v1/executions?limit=3')).body.items[0]).toMatchObject({ id, status: 'working' });
    expect((await bob.get('/api/v1/executions?status=working,pending_approval')).body.items).toEqual([]);
    expect((await auditor.get('/api/v1/executions?status=working&source=ev')).body.items).toEqual([expect.objectContaining({ id, arguments: null })]);
    await pollUntilFinal(alice, accepted.headers.get('location')!);
    const listed = (await alice.get('/api/v1/executions?limit=500')).body.items.filter((e: { id: string }) => e.id === id);
    expect(listed).toEqual([expect.objectContaining({ id, status: 'succeeded' })]);
    expect((await alice.get('/api/v1/executions?status=working')).body.items).toEqual([]);
  });

  it('takes the preference on a group invoke too', async () => {
    const accepted = await alice.request('POST', '/api/v1/groups/team/tools/echo/invoke', { arguments: { message: 'later' } }, { headers: ASYNC });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'working', caller: { principalName: 'alice' } });
    const { final } = await pollUntilFinal(alice, accepted.headers.get('location')!);
    expect(final).toMatchObject({ status: 'succeeded', group: 'team', result: { content: [{ type: 'text', text: 'Echo: later' }] } });
  });

  it('ignores Prefer values it does not know or cannot read: the call is answered as usual', async () => {
    for (const prefer of ['respond-asynchronously', 'return=minimal', ',;=,', 'foo="respond-async"', 'respond async', '\u00ff\u00fe']) {
      const answer = await invoke(alice, 'ev__echo', { arguments: { message: 'now' } }, { prefer });
      expect([prefer, answer.status, answer.headers.get('preference-applied')]).toEqual([prefer, 200, null]);
      expect(answer.body).toMatchObject({ status: 'succeeded' });
    }
    const among = await invoke(alice, 'ev__echo', { arguments: { message: 'x' } }, { prefer: 'return=minimal, RESPOND-ASYNC; x=1, wait=10' });
    expect(among.status).toBe(202);
  });

  it('follows a running execution as Server-Sent Events: its status, each progress, then the result, and the stream ends', async () => {
    const accepted = await invoke(alice, 'ev__trigger-long-running-operation', { arguments: { duration: 1.5, steps: 3 } });
    expect(accepted.status).toBe(202);
    const answer = await events(keys.alice, accepted.body.id);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    const names = answer.events.map((e) => e.event);
    expect(names[0]).toBe('status');
    expect(answer.events[0]!.data).toMatchObject({ status: 'working' });
    expect(names.at(-1)).toBe('result');
    expect(answer.events.filter((e) => e.event === 'progress').map((e) => e.data)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    const result = answer.events.at(-1)!;
    expect(result.data).toMatchObject({ id: accepted.body.id, status: 'succeeded', result: { content: [{ type: 'text', text: expect.stringContaining('completed') }] } });
    // Progress came while it ran, not all at the end.
    expect(answer.events.find((e) => e.event === 'progress')!.at).toBeLessThan(result.at - 400);
  });

  it('answers the events of a final execution with its result alone', async () => {
    const done = await invoke(alice, 'ev__echo', { arguments: { message: 'done' } }, {});
    expect(done.status).toBe(200);
    const answer = await events(keys.alice, done.body.id);
    expect(answer.events.map((e) => e.event)).toEqual(['result']);
    expect(answer.events[0]!.data).toMatchObject({ id: done.body.id, status: 'succeeded' });
  });

  it('lets the events client leave without touching the call', async () => {
    const accepted = await invoke(alice, 'ev__trigger-long-running-operation', { arguments: { duration: 1, steps: 2 } });
    const leaving = new AbortController();
    const response = await fetch(`${h.url}/api/v1/executions/${accepted.body.id}/events`, { headers: { authorization: `Bearer ${keys.alice}` }, signal: leaving.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: status');
    leaving.abort();
    const { final } = await pollUntilFinal(alice, `/api/v1/executions/${accepted.body.id}`);
    expect(final.status).toBe('succeeded');
  });

  it('cancels a running call: 202 with the execution, then it ends cancelled and the upstream is told', async () => {
    const accepted = await invoke(alice, 'faulty__slow', { arguments: { ms: 20_000 } });
    expect(accepted.status).toBe(202);
    // The call reaches the upstream first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await cancel(alice, accepted.body.id);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ id: accepted.body.id });
    const { final } = await pollUntilFinal(alice, `/api/v1/executions/${accepted.body.id}`, 5000);
    expect(final).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    expect(final.durationMs).toBeLessThan(5000);
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && !readLog().includes('cancelled')) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readLog()).toMatch(/cancelled .* by notification/);

    const again = await cancel(alice, accepted.body.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EXECUTION_FINISHED');
  }, 30_000);

  it('answers 409 EXECUTION_FINISHED to the cancel of a call that ended, and 404 to an unknown one', async () => {
    const done = await invoke(alice, 'ev__echo', { arguments: { message: 'over' } }, {});
    const finished = await cancel(alice, done.body.id);
    expect(finished.status).toBe(409);
    expect(finished.body.error).toMatchObject({ code: 'EXECUTION_FINISHED' });
    const unknown = '0190b0a0-0000-7000-8000-000000000000';
    for (const answer of [await cancel(alice, unknown), await execution(alice, unknown), await alice.get(`/api/v1/executions/${unknown}/events`), await cancel(alice, 'not-a-uuid'), await alice.get('/api/v1/executions/not-a-uuid/events')]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('EXECUTION_NOT_FOUND');
    }
  });

  it("keeps a waiting execution from another principal: not found for bob, visible to who reads every execution, cancelled only by its caller", async () => {
    const accepted = await invoke(alice, 'faulty__slow', { arguments: { ms: 3000 } });
    expect(accepted.status).toBe(202);
    const id = accepted.body.id;
    const seen: ApiResponse[] = [await execution(bob, id), await bob.get(`/api/v1/executions/${id}/events`), await cancel(bob, id)];
    for (const answer of seen) expect([answer.status, answer.body.error.code]).toEqual([404, 'EXECUTION_NOT_FOUND']);
    const byAuditor = await execution(auditor, id);
    expect(byAuditor.status).toBe(200);
    expect(byAuditor.body).toMatchObject({ id, status: 'working', arguments: null });
    // The auditor may read the call, not stop it (it may not invoke).
    expect((await cancel(auditor, id)).status).toBe(403);
    const { final } = await pollUntilFinal(alice, `/api/v1/executions/${id}`);
    expect(final.status).toBe('succeeded');
  }, 30_000);
});

import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type SubscriptionFilter } from '@modelcontextprotocol/client';
import { contributeTaskFilterV2, TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';
import { mcpAnswer, sseMessages } from '../helpers/mcp-answer.js';

const MODERN = '2026-07-28';
/** How long a task waits for its caller's input before it times out (TOOLPLANE_TASK_INPUT_WAIT_MS). */
const INPUT_WAIT_MS = 6000;
const TASKS = 'io.modelcontextprotocol/tasks';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'task-input-e2e', version: '1' },
};

/**
 * Tasks that wait for their caller's input: a 2025-11-25 upstream whose task goes `input_required`
 * and puts `elicitation/create` on the stream of `tasks/result` (test/fixtures/conformance-task-server.mjs:
 * `confirm_delete` asks once, `multi_input` twice at once). Through Toolplane the task is
 * `input_required` with the requests under keys of Toolplane's own, answered with `tasks/update`
 * (2026-07-28) or `POST /api/v1/executions/{id}/input`, by its own caller only.
 */
describe('input during a task', () => {
  let h: Harness;
  let alice: Api;
  let keys: Record<'alice' | 'bob', string>;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_TASK_AFTER_MS: '300', TOOLPLANE_TASK_INPUT_WAIT_MS: String(INPUT_WAIT_MS) });
    // `brief`: the same server, with a call timeout shorter than a person takes to answer.
    for (const [name, timeoutMs] of [['asks', undefined], ['brief', 1500]] as const) {
      const created = await h.api.post('/api/v1/sources', {
        name,
        transport: 'stdio',
        lifecycle: 'singleton',
        command: 'node',
        args: [join(FIXTURES, 'conformance-task-server.mjs'), SUITE_TAG],
        refreshIntervalSeconds: 0,
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    keys = {} as typeof keys;
    for (const name of ['alice', 'bob'] as const) keys[name] = (await h.api.post('/api/v1/api-keys', { name, role: 'agent' })).body.key;
    alice = makeApi(h.url, keys.alice);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await expectNoSuiteProcesses();
  });

  let nextId = 1;
  const rpc = async (method: string, params: Record<string, unknown>, key: string, name?: string) => {
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(name !== undefined ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: ENVELOPE } }),
    });
    return (await response.json()) as any;
  };
  const call = (tool: string, args: Record<string, unknown>, key = keys.alice) => rpc('tools/call', { name: tool, arguments: args }, key, tool);
  const get = (taskId: string, key = keys.alice) => rpc('tasks/get', { taskId }, key, taskId);
  const update = (taskId: string, inputResponses: unknown, key = keys.alice) => rpc('tasks/update', { taskId, inputResponses }, key, taskId);

  async function until(taskId: string, done: (task: any) => boolean, withinMs = 10_000): Promise<any> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const task = (await get(taskId)).result;
      if (done(task)) return task;
      if (Date.now() > deadline) throw new Error(`task still ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('asks its caller on the task, one key at a time, and completes once every key is answered', async () => {
    const created = (await call('asks__multi_input', {})).result;
    // The call becomes a task when the upstream made its own, which may already be asking.
    expect(created).toMatchObject({ resultType: 'task', status: expect.stringMatching(/^(working|input_required)$/) });
    const waiting = await until(created.taskId, (task) => task.status === 'input_required' && Object.keys(task.inputRequests ?? {}).length === 2);
    const [first, second] = Object.keys(waiting.inputRequests);
    expect(Object.values(waiting.inputRequests)).toEqual([
      { method: 'elicitation/create', params: expect.objectContaining({ message: expect.any(String) }) },
      { method: 'elicitation/create', params: expect.objectContaining({ message: expect.any(String) }) },
    ]);
    // Nothing of the upstream's task reaches the caller: not its id, not its related-task _meta.
    expect(JSON.stringify(waiting)).not.toContain('related-task');

    // Another principal's update is answered as for an unknown task, and changes nothing.
    expect((await update(created.taskId, { [first!]: { action: 'accept', content: { name: 'mallory', confirm: true } } }, keys.bob)).error.code).toBe(-32602);
    expect((await update(created.taskId, { [first!]: 'yes' })).error).toMatchObject({ code: -32602, message: expect.stringContaining(`inputResponses.${first}`) });

    expect((await update(created.taskId, { [first!]: { action: 'accept', content: { name: 'ada', confirm: true } }, stray: { action: 'decline' } })).result).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    const partly = await until(created.taskId, (task) => !(first! in (task.inputRequests ?? {})));
    expect([partly.status, Object.keys(partly.inputRequests)]).toEqual(['input_required', [second]]);

    expect((await update(created.taskId, { [second!]: { action: 'accept', content: { name: 'grace', confirm: true } } })).result.resultType).toBe('complete');
    const done = await until(created.taskId, (task) => task.status === 'completed');
    expect(done.result.content[0].text).toContain('ada');
    expect(done.result.content[0].text).toContain('grace');
  });

  it('is answered over REST too: the execution is awaiting_input with what is asked, and POST …/input answers it', async () => {
    const created = (await call('asks__confirm_delete', { filename: 'report.txt' })).result;
    await until(created.taskId, (task) => task.status === 'input_required');
    const waiting = await alice.get(`/api/v1/executions/${created.taskId}`);
    expect(waiting.body).toMatchObject({ status: 'awaiting_input', result: { inputRequests: expect.any(Object) } });
    const [key] = Object.keys(waiting.body.result.inputRequests);

    const bad = await alice.post(`/api/v1/executions/${created.taskId}/input`, { inputResponses: { [key!]: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: `inputResponses.${key}` }] });
    const bob = makeApi(h.url, keys.bob);
    expect((await bob.post(`/api/v1/executions/${created.taskId}/input`, { inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } })).status).toBe(404);

    const answered = await alice.post(`/api/v1/executions/${created.taskId}/input`, { inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } });
    expect(answered.status).toBe(202);
    const done = await until(created.taskId, (task) => task.status === 'completed');
    expect(done.result.content[0].text).toBe('Deleted report.txt');
    expect((await alice.post(`/api/v1/executions/${created.taskId}/input`, { inputResponses: {} })).status).toBe(409);
  });

  it('is answered through another replica: the answers wait on the row until the process running the call takes them', async () => {
    const peer = await h.startPeer();
    try {
      const created = (await call('asks__confirm_delete', { filename: 'elsewhere.txt' })).result;
      await until(created.taskId, (task) => task.status === 'input_required');
      const there = makeApi(peer.url, keys.alice);
      const seen = await there.get(`/api/v1/executions/${created.taskId}`);
      expect(seen.body.status).toBe('awaiting_input');
      const [key] = Object.keys(seen.body.result.inputRequests);
      expect((await there.post(`/api/v1/executions/${created.taskId}/input`, { inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } })).status).toBe(202);
      const done = await until(created.taskId, (task) => task.status === 'completed');
      expect(done.result.content[0].text).toBe('Deleted elsewhere.txt');
      expect(await h.sql('SELECT input_responses FROM execution_tasks WHERE id = $1', [created.taskId])).toEqual([{ input_responses: null }]);
    } finally {
      await peer.close();
    }
  }, 60_000);

  it('tells a caller listening for its task that it waits for input, with the requests, and then that it completed', async () => {
    const created = (await call('asks__confirm_delete', { filename: 'heard.txt' })).result;
    const told: { status: string; inputRequests?: Record<string, unknown>; result?: { content: { text?: string }[] } }[] = [];
    const client = new Client({ name: 'task-input-listener', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { extensions: { [TASKS]: {} } } });
    client.fallbackNotificationHandler = async (notification) => {
      if (TaskStatusNotificationV2Schema.safeParse({ jsonrpc: '2.0', ...notification }).success) told.push(notification.params as never);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.alice}` } } }));
    try {
      await client.listen(contributeTaskFilterV2({ notifications: {} }, [created.taskId]).notifications as SubscriptionFilter);
      const heard = async (status: string) => {
        const deadline = Date.now() + 10_000;
        while (!told.some((task) => task.status === status) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
        return told.find((task) => task.status === status);
      };
      const waiting = await heard('input_required');
      expect(Object.values(waiting?.inputRequests ?? {})).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: expect.any(String) }) }]);
      const [key] = Object.keys(waiting!.inputRequests!);
      expect((await update(created.taskId, { [key!]: { action: 'accept', content: { confirm: true } } })).result.resultType).toBe('complete');
      expect((await heard('completed'))?.result?.content[0]?.text).toBe('Deleted heard.txt');
    } finally {
      await client.close();
    }
  });

  it("does not count the wait for input against the call's timeout, and times out once the wait outlasts its own bound", async () => {
    const answeredLate = (await call('brief__confirm_delete', { filename: 'late.txt' })).result;
    const waiting = await until(answeredLate.taskId, (task) => task.status === 'input_required');
    // Longer than the source's 1500 ms call timeout.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await get(answeredLate.taskId)).result.status).toBe('input_required');
    const [key] = Object.keys(waiting.inputRequests);
    expect((await update(answeredLate.taskId, { [key!]: { action: 'accept', content: { confirm: true } } })).result.resultType).toBe('complete');
    expect((await until(answeredLate.taskId, (task) => task.status === 'completed')).result.content[0].text).toBe('Deleted late.txt');

    const neverAnswered = (await call('brief__confirm_delete', { filename: 'kept.txt' })).result;
    await until(neverAnswered.taskId, (task) => task.status === 'input_required');
    const startedWaiting = Date.now();
    const ended = await until(neverAnswered.taskId, (task) => task.status === 'failed', INPUT_WAIT_MS + 8000);
    expect(Date.now() - startedWaiting).toBeGreaterThan(INPUT_WAIT_MS - 1000);
    const record = await alice.get(`/api/v1/executions/${neverAnswered.taskId}`);
    expect(record.body).toMatchObject({ status: 'timeout', error: { code: 'TIMEOUT', message: expect.stringContaining(`waited more than ${INPUT_WAIT_MS} ms for its caller's input`) } });
    expect(JSON.stringify(ended)).not.toContain('related-task');
  }, 40_000);

  it("2025-11-25: puts the requests on the caller's tasks/result stream with the related task, and takes the answers it posts back", async () => {
    const legacy = (message: Record<string, unknown>, key = keys.alice) =>
      fetch(`${h.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
    const created = mcpAnswer(await (await legacy({ id: nextId++, method: 'tools/call', params: { name: 'asks__confirm_delete', arguments: { filename: 'legacy.txt' }, task: {} } })).text()).result.task;
    const resultId = nextId++;
    const streamed = await legacy({ id: resultId, method: 'tasks/result', params: { taskId: created.taskId } });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const messages = sseMessages(streamed.body);
    const asked = (await messages.next()).value!;
    expect(asked).toMatchObject({ method: 'elicitation/create', id: expect.any(String), params: { message: expect.any(String), _meta: { 'io.modelcontextprotocol/related-task': { taskId: created.taskId } } } });

    // Another principal's answer changes nothing; the caller's is taken.
    expect((await legacy({ id: asked.id, result: { action: 'accept', content: { confirm: true } } }, keys.bob)).status).toBe(202);
    expect((await get(created.taskId)).result.status).toBe('input_required');
    expect((await legacy({ id: asked.id, result: { action: 'accept', content: { confirm: true } } })).status).toBe(202);
    const answered = (await messages.next()).value!;
    expect(answered).toMatchObject({ id: resultId, result: { content: [{ type: 'text', text: 'Deleted legacy.txt' }] } });
    expect((await messages.next()).done).toBe(true);
  });

  it('is cancelled while it waits, and an update after that is refused', async () => {
    const created = (await call('asks__confirm_delete', { filename: 'kept.txt' })).result;
    await until(created.taskId, (task) => task.status === 'input_required');
    expect((await rpc('tasks/cancel', { taskId: created.taskId }, keys.alice, created.taskId)).result.resultType).toBe('complete');
    await until(created.taskId, (task) => task.status === 'cancelled');
    expect((await update(created.taskId, {})).error.code).toBe(-32602);
  });
});

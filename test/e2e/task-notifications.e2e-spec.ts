import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type McpSubscription, type SubscriptionFilter } from '@modelcontextprotocol/client';
import { CreateTaskResultV1Schema, TaskStatusNotificationV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import { contributeTaskFilterV2, readAcceptedTaskIdsV2, TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { sseMessages } from '../helpers/mcp-answer.js';
import { makeApi, startHarness, type Api, type Harness, type Peer } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface Told {
  taskId: string;
  status: string;
  statusMessage?: string;
  result?: { content: { type: string; text?: string }[] };
  _meta?: Record<string, unknown>;
}

/**
 * 2026-07-28 task status notifications (the tasks extension's `notifications/tasks`, on a
 * `subscriptions/listen` stream that names the tasks in `notifications.taskIds`), heard with the
 * official SDK client: its own tasks only, a held call's wait and run, the other subscriptions of
 * the same stream still served, and a change made on another replica of the same database; and the
 * 2025-11-25 `notifications/tasks/status` of a session whose stream another replica holds.
 */
describe('task status notifications on subscriptions/listen (2026-07-28)', () => {
  let h: Harness;
  let peer: Peer;
  let approverOnPeer: Api;
  const keys: Record<'alice' | 'bob', { id: string; key: string }> = {} as never;
  const clients: Client[] = [];

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_TASK_AFTER_MS: '200', TOOLPLANE_APPROVAL_SWEEP_MS: '200', TOOLPLANE_SANDBOX: 'off' });
    for (const name of ['faulty', 'held']) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', refreshIntervalSeconds: 0, command: 'node', args: [join(FIXTURES, 'faulty-server.mjs'), SUITE_TAG] });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    for (const name of ['alice', 'bob'] as const) {
      const made = await h.api.post('/api/v1/api-keys', { name, role: 'agent' });
      keys[name] = { id: made.body.id, key: made.body.key };
    }
    const boss = await h.api.post('/api/v1/api-keys', { name: 'boss', role: 'admin' });
    expect((await h.api.post('/api/v1/interceptors', { name: 'approve-held', kind: 'approval', scope: { tools: ['held__slow'] }, approvers: { roles: ['admin'] }, timeoutMs: 600_000 })).status).toBe(201);
    peer = await h.startPeer({ TOOLPLANE_TASK_AFTER_MS: '200', TOOLPLANE_APPROVAL_SWEEP_MS: '200', TOOLPLANE_SANDBOX: 'off' });
    approverOnPeer = makeApi(peer.url, boss.body.key);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoSuiteProcesses();
  }, 60_000);

  let nextId = 1;
  /** A 2026-07-28 request as a client declaring the tasks extension sends it, answered as JSON (or the last SSE event). */
  const rpc = async (url: string, who: 'alice' | 'bob', method: string, params: Record<string, unknown>) => {
    const name = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${keys[who].key}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(name !== undefined ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: envelope(who) } }),
    });
    const text = await response.text();
    const data = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5) : text;
    return { status: response.status, body: JSON.parse(data) };
  };
  const envelope = (who: string, extension = true) => ({
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': extension ? { extensions: { [TASKS]: {} } } : {},
    'io.modelcontextprotocol/clientInfo': { name: `task-notifications-${who}`, version: '1' },
  });

  /** A task started by `who`: a call that outlives TOOLPLANE_TASK_AFTER_MS, or is held for approval. */
  const startTask = async (url: string, who: 'alice' | 'bob', tool: string, ms: number): Promise<string> => {
    const created = await rpc(url, who, 'tools/call', { name: tool, arguments: { ms } });
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    return created.body.result.taskId as string;
  };

  /** The SDK client of `who` on `url`'s /mcp, pinned to 2026-07-28 and declaring the tasks extension; keeps the task notifications it hears. */
  const connect = async (url: string, who: 'alice' | 'bob') => {
    const told: Told[] = [];
    const heard: string[] = [];
    const client = new Client({ name: `task-notifications-${who}`, version: '1' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { extensions: { [TASKS]: {} } } });
    client.fallbackNotificationHandler = async (notification) => {
      heard.push(notification.method);
      const parsed = TaskStatusNotificationV2Schema.safeParse({ jsonrpc: '2.0', ...notification });
      if (parsed.success) told.push(notification.params as unknown as Told);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[who].key}` } } }));
    clients.push(client);
    const listen = (taskIds: string[], filter: SubscriptionFilter = {}): Promise<McpSubscription> => client.listen(contributeTaskFilterV2({ notifications: filter }, taskIds).notifications as SubscriptionFilter);
    return { client, told, heard, listen };
  };

  /** A listen over plain HTTP: its status, and the messages of its stream as they come (`stop` ends it). */
  const rawListen = async (url: string, who: 'alice' | 'bob', notifications: Record<string, unknown>, extension = true) => {
    const stop = new AbortController();
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${keys[who].key}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: `listen-${nextId++}`, method: 'subscriptions/listen', params: { notifications, _meta: envelope(who, extension) } }),
      signal: stop.signal,
    });
    const messages: Record<string, any>[] = [];
    let ended = false;
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      void (async () => {
        try {
          for await (const message of sseMessages(response.body)) messages.push(message);
        } catch {
          // stopped
        }
        ended = true;
      })();
    } else {
      messages.push((await response.json()) as Record<string, any>);
      ended = true;
    }
    return { status: response.status, messages, ended: () => ended, stop: () => stop.abort() };
  };

  const until = async (done: () => boolean, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    return done();
  };

  /** The pending approval of a task, once it is there. */
  const approvalOf = async (taskId: string): Promise<string> => {
    let found: string | undefined;
    const deadline = Date.now() + 15_000;
    while (!found && Date.now() < deadline) {
      const listed = await approverOnPeer.get('/api/v1/approvals?status=pending');
      found = (listed.body.items as { id: string; executionId: string }[]).find((item) => item.executionId === taskId)?.id;
      if (!found) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!found) throw new Error(`no pending approval for ${taskId}`);
    return found;
  };

  it('tells a caller listening for its task each change: its state at once, then completed with the result inlined', async () => {
    const alice = await connect(h.url, 'alice');
    const taskId = await startTask(h.url, 'alice', 'faulty__slow', 1_500);
    const subscription = await alice.listen([taskId]);
    expect(await until(() => alice.told.some((t) => t.status === 'completed'))).toBe(true);
    expect(alice.told.map((t) => [t.taskId, t.status])).toEqual([
      [taskId, 'working'],
      [taskId, 'completed'],
    ]);
    const completed = alice.told.at(-1)!;
    expect(completed).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'waited 1500 ms' }] } });
    expect(completed._meta).toMatchObject({ [SUBSCRIPTION_ID]: expect.any(String) });
    // Nothing else to tell, and nothing else asked: the stream ends as a listen that honors nothing does.
    expect(await Promise.race([subscription.closed, new Promise((resolve) => setTimeout(() => resolve('open'), 5_000))])).toBe('graceful');
  }, 30_000);

  it("acknowledges only the caller's own tasks, and never tells another principal's", async () => {
    const bobsTask = await startTask(h.url, 'bob', 'faulty__slow', 800);
    const alicesTask = await startTask(h.url, 'alice', 'faulty__slow', 800);
    const listen = await rawListen(h.url, 'alice', { taskIds: [bobsTask, alicesTask, 'not-a-task', '00000000-0000-4000-8000-000000000000'] });
    expect(listen.status).toBe(200);
    expect(await until(() => listen.messages.some((m) => m.method === 'notifications/tasks' && m.params.status === 'completed'))).toBe(true);
    const [ack] = listen.messages;
    expect(ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    expect(readAcceptedTaskIdsV2(ack!.params)).toEqual([alicesTask]);
    // Bob's task ends too; Alice hears of hers alone.
    await until(() => false, 1_500);
    const tasksTold = listen.messages.filter((m) => m.method === 'notifications/tasks');
    expect(tasksTold.length).toBeGreaterThan(0);
    expect(tasksTold.every((m) => m.params.taskId === alicesTask)).toBe(true);
    expect(JSON.stringify(listen.messages)).not.toContain(bobsTask);
    listen.stop();
  }, 30_000);

  it('refuses task notifications to a caller that does not declare the tasks extension (-32021), and task ids that are not strings (-32602)', async () => {
    const undeclared = await rawListen(h.url, 'alice', { taskIds: ['00000000-0000-4000-8000-000000000000'] }, false);
    expect(undeclared.status).toBe(400);
    expect(undeclared.messages[0]).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } });
    const wrong = await rawListen(h.url, 'alice', { taskIds: [42] });
    expect(wrong.messages[0]).toMatchObject({ error: { code: -32602 } });
  });

  it('keeps serving the other subscriptions of the same listen: tool-list changes and task changes on one stream', async () => {
    const alice = await connect(h.url, 'alice');
    const taskId = await startTask(h.url, 'alice', 'faulty__slow', 2_000);
    const subscription = await alice.listen([taskId], { toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    expect((await h.api.patch('/api/v1/tools/faulty__echo', { enabled: false })).status).toBe(200);
    expect(await until(() => alice.heard.includes('notifications/tools/list_changed'))).toBe(true);
    expect(await until(() => alice.told.some((t) => t.status === 'completed'))).toBe(true);
    // The task ended, the tool-list subscription goes on.
    expect((await h.api.patch('/api/v1/tools/faulty__echo', { enabled: true })).status).toBe(200);
    expect(await until(() => alice.heard.filter((m) => m === 'notifications/tools/list_changed').length >= 2)).toBe(true);
    expect(await Promise.race([subscription.closed, new Promise((resolve) => setTimeout(() => resolve('open'), 500))])).toBe('open');
    await subscription.close();
  }, 30_000);

  it('tells a caller listening on one replica that its held task waits for approval, runs again once approved on another, and completes there', async () => {
    const alice = await connect(h.url, 'alice');
    const taskId = await startTask(h.url, 'alice', 'held__slow', 300);
    await alice.listen([taskId]);
    expect(await until(() => alice.told.length > 0)).toBe(true);
    expect(alice.told[0]).toMatchObject({ taskId, status: 'working', statusMessage: 'waiting for approval' });

    const approval = await approvalOf(taskId);
    const approvedAt = Date.now();
    expect((await approverOnPeer.post(`/api/v1/approvals/${approval}/approve`, {})).status).toBe(200);
    expect(await until(() => alice.told.at(-1)?.status === 'completed')).toBe(true);
    const heardAfter = Date.now() - approvedAt;
    // Held, running again (its status message gone), completed: the run and its end happened on the other replica.
    expect(alice.told.map((t) => [t.status, t.statusMessage ?? null])).toEqual([
      ['working', 'waiting for approval'],
      ['working', null],
      ['completed', null],
    ]);
    expect(alice.told.at(-1)).toMatchObject({ result: { content: [{ type: 'text', text: 'waited 300 ms' }] } });
    const record = (await h.api.get(`/api/v1/executions/${taskId}`)).body;
    expect(record).toMatchObject({ status: 'succeeded', caller: { principalId: keys.alice.id } });
    // Announced by the replica that ran it, not found by a later look (which comes 5 s after the last one at most).
    expect(heardAfter).toBeLessThan(4_000);
    console.log(`held task approved on the peer: completion heard on the first replica ${heardAfter} ms after the decision`);
  }, 45_000);

  it('2025-11-25: a session whose stream is open on one replica hears of a task another replica took, was approved on and ran (notifications/tasks/status)', async () => {
    const told: { taskId: string; status: string; statusMessage?: string }[] = [];
    const client = new Client({ name: 'task-notifications-legacy', version: '1' });
    client.fallbackNotificationHandler = async (notification) => {
      const parsed = TaskStatusNotificationV1Schema.safeParse({ jsonrpc: '2.0', ...notification });
      if (parsed.success) told.push(parsed.data.params);
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.alice.key}` } } });
    await client.connect(transport);
    clients.push(client);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^tps1\./);
    await until(() => false, 500); // the standalone stream opens in the background

    // The same session's task-augmented call, taken by the other replica (a load balancer without affinity).
    const response = await fetch(`${peer.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${keys.alice.key}`, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'held__slow', arguments: { ms: 300 }, task: {} } }),
    });
    const text = await response.text();
    const created = CreateTaskResultV1Schema.parse(JSON.parse(text.startsWith('{') ? text : text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5)).result);
    const { taskId } = created.task;
    expect(created.task).toMatchObject({ status: 'working' });

    const approval = await approvalOf(taskId);
    expect((await approverOnPeer.post(`/api/v1/approvals/${approval}/approve`, {})).status).toBe(200);
    expect(await until(() => told.at(-1)?.status === 'completed')).toBe(true);
    // Held, running again (its status message gone), then completed: told by the replica that ran it, heard on the one holding the stream.
    expect(told.map((t) => [t.taskId, t.status, t.statusMessage ?? null])).toEqual([
      [taskId, 'working', 'waiting for approval'],
      [taskId, 'working', null],
      [taskId, 'completed', null],
    ]);
  }, 45_000);
});

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CreateTaskResultV1Schema, TaskStatusNotificationV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'approvals-e2e', version: '1' },
};

/**
 * Calls held for approval through MCP: a caller that cannot take a task is held open until the
 * decision (taken over REST by another key, never through the caller's connection) and then gets
 * the result or the refusal; a caller that asked for a task, or that declares the 2026-07-28 tasks
 * extension, gets a task at once, `working` with a status message that says it waits; a caller
 * that cancels its task withdraws the approval.
 */
describe('approvals through MCP', () => {
  let h: Harness;
  let caller: { id: string; key: string };
  let approver: Api;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_APPROVAL_SWEEP_MS: '200', TOOLPLANE_SANDBOX: 'off' });
    // server-everything declares its echo `taskSupport: forbidden`; faulty-server's slow tool declares nothing.
    for (const [name, args] of [
      ['ev', [EVERYTHING, 'stdio', SUITE_TAG]],
      ['faulty', [`${FIXTURES}/faulty-server.mjs`, SUITE_TAG]],
    ] as const) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', refreshIntervalSeconds: 0, command: 'node', args });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    const agent = await h.api.post('/api/v1/api-keys', { name: 'agent', role: 'agent' });
    caller = { id: agent.body.id, key: agent.body.key };
    const boss = await h.api.post('/api/v1/api-keys', { name: 'boss', role: 'admin' });
    approver = makeApi(h.url, boss.body.key);
    const interceptor = await h.api.post('/api/v1/interceptors', { name: 'approve-echo', kind: 'approval', scope: { tools: ['ev__echo', 'faulty__slow'] }, approvers: { roles: ['admin'] }, timeoutMs: 600_000 });
    expect(interceptor.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await expectNoSuiteProcesses();
  });

  let nextId = 1;
  const rpc = async (era: 'legacy' | 'modern', method: string, params: Record<string, unknown>, signal?: AbortSignal) => {
    const modern = era === 'modern';
    const name = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${caller.key}`,
      'mcp-protocol-version': modern ? MODERN : LEGACY,
      ...(modern ? { 'mcp-method': method, ...(name !== undefined ? { 'mcp-name': name } : {}) } : {}),
    };
    const body = { jsonrpc: '2.0', id: nextId++, method, params: modern ? { ...params, _meta: ENVELOPE } : params };
    const response = await fetch(`${h.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
    const text = await response.text();
    const data = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5) : text;
    return JSON.parse(data);
  };

  /** The pending approval of the caller's newest held call, once it is there. */
  const pendingApproval = async (): Promise<{ id: string; executionId: string }> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const listed = await approver.get('/api/v1/approvals?status=pending');
      const mine = (listed.body.items as { id: string; executionId: string; caller: { principalId: string } }[]).filter((item) => item.caller.principalId === caller.id);
      if (mine.length > 0) return mine[0]!;
      if (Date.now() > deadline) throw new Error('no pending approval');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('holds a caller that cannot take a task open until another key approves, then answers the result', async () => {
    const answer = rpc('legacy', 'tools/call', { name: 'ev__echo', arguments: { message: 'held open' } });
    const approval = await pendingApproval();
    expect((await approver.post(`/api/v1/approvals/${approval.id}/approve`, { comment: 'fine' })).status).toBe(200);
    expect((await answer).result).toMatchObject({ content: [{ type: 'text', text: 'Echo: held open' }] });
    expect((await h.api.get(`/api/v1/executions/${approval.executionId}`)).body).toMatchObject({ status: 'succeeded', channel: 'mcp', caller: { principalId: caller.id } });
  });

  it('answers a denied call to the caller held open as an error result, and nothing ran', async () => {
    const answer = rpc('legacy', 'tools/call', { name: 'ev__echo', arguments: { message: 'never' } });
    const approval = await pendingApproval();
    expect((await approver.post(`/api/v1/approvals/${approval.id}/deny`, { comment: 'no' })).status).toBe(200);
    const result = (await answer).result;
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('APPROVAL_DENIED') }] });
    expect((await h.api.get(`/api/v1/executions/${approval.executionId}`)).body).toMatchObject({ status: 'rejected', error: { code: 'APPROVAL_DENIED' }, attempts: 0 });
  });

  it('2025-11-25: a call asked as a task is a task at once, working while it waits; after the approval tasks/result answers', async () => {
    // A tool that declares it never runs as a task is not made one: its caller would be held open.
    expect((await rpc('legacy', 'tools/call', { name: 'ev__echo', arguments: { message: 'x' }, task: {} })).error).toMatchObject({ code: -32601 });
    const created = await rpc('legacy', 'tools/call', { name: 'faulty__slow', arguments: { ms: 10 }, task: {} });
    const task = created.result.task;
    expect(task).toMatchObject({ status: 'working' });
    const approval = await pendingApproval();
    expect(approval.executionId).toBe(task.taskId);
    expect((await rpc('legacy', 'tasks/get', { taskId: task.taskId })).result).toMatchObject({ status: 'working', statusMessage: expect.stringContaining('approval') });
    expect((await approver.post(`/api/v1/approvals/${approval.id}/approve`, {})).status).toBe(200);
    expect((await rpc('legacy', 'tasks/result', { taskId: task.taskId })).result).toMatchObject({ content: [{ type: 'text', text: 'waited 10 ms' }] });
  });

  it('2025-11-25: the SDK client hears its held task wait for approval, then complete (notifications/tasks/status)', async () => {
    const heard: { status: string; statusMessage?: string; taskId: string }[] = [];
    const client = new Client({ name: 'approvals-e2e', version: '1' });
    client.fallbackNotificationHandler = async (notification) => {
      const parsed = TaskStatusNotificationV1Schema.safeParse({ jsonrpc: '2.0', ...notification });
      if (parsed.success) heard.push(parsed.data.params);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${caller.key}` } } }));
    try {
      const created = await client.request({ method: 'tools/call', params: { name: 'faulty__slow', arguments: { ms: 10 }, task: {} } }, CreateTaskResultV1Schema);
      const { taskId } = created.task;
      const approval = await pendingApproval();
      const until = async (done: () => boolean) => {
        const deadline = Date.now() + 10_000;
        while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      };
      await until(() => heard.length > 0);
      expect(heard[0]).toMatchObject({ taskId, status: 'working', statusMessage: 'waiting for approval' });
      expect((await approver.post(`/api/v1/approvals/${approval.id}/approve`, {})).status).toBe(200);
      await until(() => heard.at(-1)?.status === 'completed');
      expect(heard.at(-1)).toMatchObject({ taskId, status: 'completed' });
      expect(heard.every((told) => told.taskId === taskId)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28: a caller declaring the tasks extension gets a task at once for a held call', async () => {
    const created = await rpc('modern', 'tools/call', { name: 'faulty__slow', arguments: { ms: 10 } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const approval = await pendingApproval();
    expect(approval.executionId).toBe(created.result.taskId);
    expect((await approver.post(`/api/v1/approvals/${approval.id}/approve`, {})).status).toBe(200);
    const deadline = Date.now() + 15_000;
    let got = await rpc('modern', 'tasks/get', { taskId: created.result.taskId });
    while (got.result.status === 'working' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      got = await rpc('modern', 'tasks/get', { taskId: created.result.taskId });
    }
    expect(got.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'waited 10 ms' }] } });
  });

  it('withdraws the approval when the caller cancels its waiting task: the call ends cancelled, and cannot be approved after', async () => {
    const created = await rpc('legacy', 'tools/call', { name: 'faulty__slow', arguments: { ms: 10 }, task: {} });
    const taskId = created.result.task.taskId as string;
    const approval = await pendingApproval();
    await rpc('legacy', 'tasks/cancel', { taskId });
    const deadline = Date.now() + 15_000;
    let got = await rpc('legacy', 'tasks/get', { taskId });
    while (got.result.status === 'working' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      got = await rpc('legacy', 'tasks/get', { taskId });
    }
    expect(got.result).toMatchObject({ status: 'cancelled' });
    expect((await h.api.get(`/api/v1/executions/${taskId}`)).body).toMatchObject({ status: 'cancelled', error: { code: 'CALL_CANCELLED' } });
    expect((await approver.post(`/api/v1/approvals/${approval.id}/approve`, {})).status).toBe(409);
  });
});

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const TASKS = 'io.modelcontextprotocol/tasks';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'tasks-e2e', version: '1' },
};
/** The longest a call may run here: a Toolplane killed while a task runs leaves a started record the next start sweeps after it. */
const MAX_CALL_TIMEOUT_MS = 4_000;
const SWEEP_MARGIN_MS = 60_000;

/**
 * MCP tasks end to end, on `/mcp`, `/mcp/sources/{name}`, `/mcp/groups/{name}` and `/mcp/gateway`:
 * 2025-11-25 (`params.task`, tasks/get|result|list|cancel) and 2026-07-28 (the tasks extension:
 * a call of a caller that declares it becomes a task past TOOLPLANE_TASK_AFTER_MS; tasks/get,
 * tasks/cancel), with faulty-server's `slow` tool, which logs the cancellations it is told of.
 */
describe('MCP tasks', () => {
  let h: Harness;
  let dir: string;
  let cancelLog: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolplane-tasks-'));
    cancelLog = join(dir, 'cancel.log');
    // The sandboxed plugin (an unprivileged uid) appends to the log.
    chmodSync(dir, 0o777);
    h = await startHarness({ TOOLPLANE_TASK_AFTER_MS: '300' });
    const created = await h.api.post('/api/v1/sources', {
      name: 'faulty',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [join(FIXTURES, 'faulty-server.mjs'), SUITE_TAG],
      env: { CANCEL_LOG: cancelLog },
      sandbox: { writablePaths: [dir] },
      refreshIntervalSeconds: 0,
    });
    expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    expect((await h.api.post('/api/v1/groups', { name: 'waiters', include: ['faulty__slow'], overrides: { faulty__slow: { name: 'wait' } } })).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoSuiteProcesses();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let nextId = 1;
  /** One JSON-RPC request, posted raw (the SDK's client has no task methods), answered as JSON. */
  const rpc = async (path: string, era: 'legacy' | 'modern', method: string, params: Record<string, unknown>, options: { key?: string; base?: string; name?: string } = {}) => {
    const modern = era === 'modern';
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${options.key ?? h.adminKey}`,
      'mcp-protocol-version': modern ? MODERN : LEGACY,
      ...(modern ? { 'mcp-method': method } : {}),
    };
    const name = options.name ?? (typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined);
    if (modern && name !== undefined) headers['mcp-name'] = name;
    const body = { jsonrpc: '2.0', id: nextId++, method, params: modern ? { ...params, _meta: { ...ENVELOPE, ...(params._meta as object) } } : params };
    const response = await fetch(`${options.base ?? h.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    const data = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5) : text;
    return { status: response.status, body: JSON.parse(data) };
  };
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > end) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const cancellations = () => (existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8').split('\n').filter(Boolean) : []);

  describe.each([
    ['/mcp', 'faulty__slow'],
    ['/mcp/sources/faulty', 'slow'],
    ['/mcp/groups/waiters', 'wait'],
  ])('on %s', (path, tool) => {
    it('2025-11-25: a call with params.task answers its task at once; tasks/get, tasks/result and tasks/list follow it', async () => {
      const created = await rpc(path, 'legacy', 'tools/call', { name: tool, arguments: { ms: 1500 }, task: { ttl: 600_000 } });
      expect(created.status).toBe(200);
      const task = created.body.result.task;
      expect(task).toMatchObject({ status: 'working', ttl: 600_000, pollInterval: 1000 });
      expect(Date.parse(task.createdAt)).toBeLessThanOrEqual(Date.parse(task.lastUpdatedAt));

      expect((await rpc(path, 'legacy', 'tasks/get', { taskId: task.taskId })).body.result).toMatchObject({ taskId: task.taskId, status: 'working' });
      const listed = (await rpc(path, 'legacy', 'tasks/list', {})).body.result.tasks;
      expect(listed.map((t: { taskId: string }) => t.taskId)).toContain(task.taskId);

      const result = await rpc(path, 'legacy', 'tasks/result', { taskId: task.taskId });
      expect(result.body.result).toEqual({ content: [{ type: 'text', text: 'waited 1500 ms' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } } });
      expect((await rpc(path, 'legacy', 'tasks/get', { taskId: task.taskId })).body.result).toMatchObject({ taskId: task.taskId, status: 'completed' });
      // The task is the execution: its record is the call's.
      expect((await h.api.get(`/api/v1/executions/${task.taskId}`)).body).toMatchObject({ status: 'succeeded', qualifiedName: 'faulty__slow', channel: 'mcp' });
    }, 30_000);

    it('2026-07-28: a call of a caller declaring the tasks extension becomes a task past the threshold; tasks/get inlines the result', async () => {
      const created = await rpc(path, 'modern', 'tools/call', { name: tool, arguments: { ms: 1500 } });
      expect(created.status).toBe(200);
      const task = created.body.result;
      expect(task).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1000 });
      expect(task).not.toHaveProperty('ttl');
      expect(task).not.toHaveProperty('task');
      const done = await until(
        () => rpc(path, 'modern', 'tasks/get', { taskId: task.taskId }),
        (answer) => answer.body.result?.status !== 'working',
      );
      expect(done.body.result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'completed', result: { content: [{ type: 'text', text: 'waited 1500 ms' }] } });
      // A call that ends within the threshold is answered in its request.
      const quick = await rpc(path, 'modern', 'tools/call', { name: tool, arguments: { ms: 10 } });
      expect(quick.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'waited 10 ms' }] });
    }, 30_000);
  });

  it('2025-11-25 and 2026-07-28 advertise tasks: the initialize capability, the server/discover extension', async () => {
    const initialized = await rpc('/mcp', 'legacy', 'initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(initialized.body.result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const discovered = await rpc('/mcp', 'modern', 'server/discover', {});
    expect(discovered.body.result.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(discovered.body.result.capabilities).not.toHaveProperty('tasks');
  });

  it('the gateway runs call_tool as a task', async () => {
    const created = await rpc('/mcp/gateway', 'legacy', 'tools/call', { name: 'call_tool', arguments: { name: 'faulty__slow', arguments: { ms: 200 } }, task: {} });
    const { taskId } = created.body.result.task;
    const result = await rpc('/mcp/gateway', 'legacy', 'tasks/result', { taskId });
    expect(result.body.result.content).toEqual([{ type: 'text', text: 'waited 200 ms' }]);
    const search = await rpc('/mcp/gateway', 'legacy', 'tools/call', { name: 'search_tools', arguments: { query: 'wait' }, task: {} });
    expect(search.body.error.code).toBe(-32601);
  });

  it('cancels a running task: it ends cancelled and the upstream is told', async () => {
    const before = cancellations().length;
    const created = await rpc('/mcp', 'legacy', 'tools/call', { name: 'faulty__slow', arguments: { ms: 30_000 }, task: {} });
    const { taskId } = created.body.result.task;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await rpc('/mcp', 'legacy', 'tasks/cancel', { taskId });
    expect(cancelled.body.result).toMatchObject({ taskId, status: 'cancelled' });
    expect((await until(async () => cancellations().length, (n) => n > before)) > before).toBe(true);
    expect((await rpc('/mcp', 'legacy', 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
    // Cancelling a task that already ended is an error in 2025-11-25, acknowledged in 2026-07-28.
    expect((await rpc('/mcp', 'legacy', 'tasks/cancel', { taskId })).body.error.code).toBe(-32602);
    expect((await rpc('/mcp', 'modern', 'tasks/cancel', { taskId })).body.result).toMatchObject({ resultType: 'complete' });

    const modern = (await rpc('/mcp', 'modern', 'tools/call', { name: 'faulty__slow', arguments: { ms: 30_000 } })).body.result;
    expect((await rpc('/mcp', 'modern', 'tasks/cancel', { taskId: modern.taskId })).body.result).toMatchObject({ resultType: 'complete' });
    expect((await rpc('/mcp', 'modern', 'tasks/get', { taskId: modern.taskId })).body.result.status).toBe('cancelled');
    expect((await h.api.get(`/api/v1/executions/${modern.taskId}`)).body.status).toBe('cancelled');
  }, 30_000);

  it("answers another principal's task as not found, exactly as an unknown one", async () => {
    const other = (await h.api.post('/api/v1/api-keys', { name: 'another-agent', role: 'agent' })).body.key;
    const created = await rpc('/mcp', 'legacy', 'tools/call', { name: 'faulty__slow', arguments: { ms: 10 }, task: {} });
    const { taskId } = created.body.result.task;
    const unknown = '01900000-0000-7000-8000-000000000000';
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const theirs = await rpc('/mcp', 'legacy', method, { taskId }, { key: other });
      const none = await rpc('/mcp', 'legacy', method, { taskId: unknown }, { key: other });
      expect(theirs.body.error.code).toBe(-32602);
      expect(theirs.body.error.message.replace(taskId, 'ID')).toBe(none.body.error.message.replace(unknown, 'ID'));
    }
    expect((await rpc('/mcp', 'modern', 'tasks/get', { taskId }, { key: other })).body.error.code).toBe(-32602);
    expect((await rpc('/mcp', 'legacy', 'tasks/list', {}, { key: other })).body.result.tasks).toEqual([]);
  });

  it('2026-07-28: tasks methods need the extension declared and Mcp-Name naming the task; tasks/update of a task that asks for nothing is refused', async () => {
    const created = (await rpc('/mcp', 'modern', 'tools/call', { name: 'faulty__slow', arguments: { ms: 1000 } })).body.result;
    const bare = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${h.adminKey}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tasks/get', 'mcp-name': created.taskId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: created.taskId, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    expect(((await bare.json()) as any).error.code).toBe(-32021);
    expect((await rpc('/mcp', 'modern', 'tasks/get', { taskId: created.taskId }, { name: 'another' })).body.error.code).toBe(-32020);
    expect((await rpc('/mcp', 'modern', 'tasks/update', { taskId: created.taskId, inputResponses: {} })).body.error.code).toBe(-32602);
    expect((await rpc('/mcp', 'modern', 'tasks/list', {})).body.error.code).toBe(-32601);
  });

  it('a task survives a restart: another process answers it, and its final state is known', async () => {
    const settings = { TOOLPLANE_MAX_CALL_TIMEOUT_MS: String(MAX_CALL_TIMEOUT_MS) };
    const a = await h.startPeer(settings);
    const created = await rpc('/mcp', 'legacy', 'tools/call', { name: 'faulty__slow', arguments: { ms: 3_000 }, task: {} }, { base: a.url });
    const { taskId } = created.body.result.task;
    await new Promise((resolve) => setTimeout(resolve, 300));
    a.process.child.kill('SIGKILL');
    await a.process.stop().catch(() => undefined);
    await a.close().catch(() => undefined);
    // Any process answers it meanwhile: it is in the database.
    expect((await rpc('/mcp', 'legacy', 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'working' });
    // Past the longest call it could have been, the next start records it interrupted.
    await new Promise((resolve) => setTimeout(resolve, MAX_CALL_TIMEOUT_MS + SWEEP_MARGIN_MS + 500 - 300));
    const b = await h.startPeer(settings);
    const after = await rpc('/mcp', 'legacy', 'tasks/get', { taskId }, { base: b.url });
    expect(after.body.result).toMatchObject({ taskId, status: 'failed', statusMessage: expect.stringContaining('INTERRUPTED') });
    const result = await rpc('/mcp', 'legacy', 'tasks/result', { taskId }, { base: b.url });
    expect(result.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('[INTERRUPTED]') }] });
    await b.close();
  }, 120_000);
});

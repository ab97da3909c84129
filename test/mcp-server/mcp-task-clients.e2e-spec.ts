import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclaration, type RawClientDispatch, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { CreateTaskResultV1Schema, TaskV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

/**
 * fetch, with JSON bodies parsed in this test's realm. Jest runs a test file in a realm of its own,
 * while Node's fetch parses `response.json()` into objects of the main one, whose prototype is not
 * this realm's Object.prototype: the Tasks client's JSON check (`isJsonValue`) refuses such a result
 * ("Expected a JSON value"). A client in a plain Node process never sees this.
 */
const inRealmFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  Object.defineProperty(response, 'json', { value: async () => JSON.parse(await response.text()) });
  return response;
};

interface Heard {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * MCP tasks through the official clients: the SDK v2 Client (2025-11-25 task-augmented calls and
 * `notifications/tasks/status` on its session's standalone stream) and the Tasks client
 * (`@modelcontextprotocol/ext-tasks`) over it, in both eras, against faulty-server's `slow` tool.
 */
describe('MCP tasks through the official clients', () => {
  let h: Harness;
  const clients: Client[] = [];
  const sessions: TaskEnabledSession[] = [];

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_TASK_AFTER_MS: '300' });
    const created = await h.api.post('/api/v1/sources', {
      name: 'faulty',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [join(FIXTURES, 'faulty-server.mjs'), SUITE_TAG],
      refreshIntervalSeconds: 0,
    });
    expect([created.status, created.body.health]).toEqual([201, 'healthy']);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close().catch(() => undefined)));
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoSuiteProcesses();
  });

  /** An SDK client on `/mcp`: the SDK's default 2025-era negotiation, or 2026-07-28 pinned; every notification it hears is kept. */
  const connect = async (era: 'legacy' | 'modern', options: { elicitation?: boolean } = {}) => {
    const heard: Heard[] = [];
    const client = new Client(
      { name: `task-clients-${era}`, version: '1' },
      { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}), ...(options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {}) },
    );
    client.fallbackNotificationHandler = async (notification) => void heard.push(notification as Heard);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { fetch: inRealmFetch, requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    clients.push(client);
    return { client, heard };
  };

  const statusesOf = (heard: Heard[], taskId: string) =>
    heard.filter((n) => n.method === 'notifications/tasks/status' && n.params?.taskId === taskId).map((n) => TaskV1Schema.parse(n.params).status);

  const until = async (done: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    return done();
  };

  describe.each([
    ['a sessionless client (its sealed session id)', false],
    ['a client holding a session here (it declared elicitation)', true],
  ])('2025-11-25, %s', (_label, elicitation) => {
    it('hears notifications/tasks/status on its standalone stream when its task completes, and when one is cancelled', async () => {
      const { client, heard } = await connect('legacy', { elicitation });
      const created = await client.request({ method: 'tools/call', params: { name: 'faulty__slow', arguments: { ms: 600 }, task: { ttl: 60_000 } } }, CreateTaskResultV1Schema);
      const { taskId } = created.task;
      expect(created.task.status).toBe('working');
      expect(await until(() => statusesOf(heard, taskId).includes('completed'))).toBe(true);
      expect(statusesOf(heard, taskId)).toEqual(['completed']);
      const told = heard.find((n) => n.params?.taskId === taskId)!.params!;
      expect(told).toMatchObject({ taskId, status: 'completed', ttl: 60_000, pollInterval: 1000 });

      const long = await client.request({ method: 'tools/call', params: { name: 'faulty__slow', arguments: { ms: 30_000 }, task: {} } }, CreateTaskResultV1Schema);
      await client.request({ method: 'tasks/cancel', params: { taskId: long.task.taskId } }, TaskV1Schema);
      expect(await until(() => statusesOf(heard, long.task.taskId).includes('cancelled'))).toBe(true);
    }, 30_000);
  });

  /** A 2026-07-28 request as the Tasks client frames it, posted with the headers the revision asks for. */
  const rawDispatch: RawClientDispatch = async (request, options) => {
    const body = request as { method: string; params?: { name?: string; taskId?: string } };
    const name = body.params?.taskId ?? body.params?.name;
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${h.adminKey}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': body.method,
        ...(name !== undefined ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    const text = await response.text();
    const data = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5) : text;
    const answer = JSON.parse(data) as { result?: JsonValue; error?: { code: number; message: string; data?: JsonValue } };
    return answer.error ? { kind: 'error', error: answer.error } : { kind: 'result', result: answer.result! };
  };

  const tasksSession = async (era: 'legacy' | 'modern') => {
    const { client } = await connect(era);
    const session =
      era === 'legacy'
        ? createTaskSessionFromClient(client, { endpointId: 'toolplane-legacy' })
        : createTaskSessionFromClient(client, {
            endpointId: 'toolplane-modern',
            rawDispatch,
            v2RequestFraming: { protocolVersion: MODERN, clientInfo: { name: 'task-clients-modern', version: '1' }, clientCapabilities: { extensions: { [TASKS]: {} } } },
          });
    sessions.push(session);
    return session;
  };

  describe.each(['legacy', 'modern'] as const)('the Tasks client (ext-tasks), %s', (era) => {
    it('lists the tools, runs a call as a task to its result, and cancels one', async () => {
      const session = await tasksSession(era);
      expect(session.capabilities).toMatchObject({ execution: true });
      // Without a declaration given, the session lists the tools (tools/list) for the tool's; faulty__slow declares no
      // execution.taskSupport, which a 2025-11-25 client reads as "forbidden": it is answered in its request.
      const plain = await session.callTool('faulty__slow', { ms: 10 });
      expect(plain.kind).toBe('immediate');
      expect((await plain.settle()).outcome).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'waited 10 ms' }] } });

      // 2025-11-25: the client asks for a task (its host declaring the tool optional, which Toolplane serves); 2026-07-28: the call
      // outlives TOOLPLANE_TASK_AFTER_MS and becomes one.
      const asTask = era === 'legacy' ? { task: { preference: 'require' as const }, declaration: toolDeclaration({ name: 'faulty__slow', inputSchema: { type: 'object' }, taskSupport: 'optional' }) } : {};
      const execution = await session.callTool('faulty__slow', { ms: 800 }, asTask);
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'waited 800 ms' }] } });
      const taskId = execution.kind === 'task' ? String(execution.handle.taskId) : '';
      expect((await h.api.get(`/api/v1/executions/${taskId}`)).body).toMatchObject({ status: 'succeeded', qualifiedName: 'faulty__slow' });

      const long = await session.callTool('faulty__slow', { ms: 30_000 }, asTask);
      expect(long.kind).toBe('task');
      await long.cancel();
      expect((await long.settle()).outcome.status).toBe('cancelled');
    }, 30_000);
  });
});

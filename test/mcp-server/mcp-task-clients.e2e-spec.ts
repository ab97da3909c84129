import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type RawClientDispatch, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { CreateTaskResultV1Schema, TaskV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

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
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
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
});

import { mcpAnswer } from '../helpers/mcp-answer.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

const TASK_SERVER = `${FIXTURES}/task-server.mjs`;
/** A 2026-07-28 server with the tasks extension (its task ids start with `modern-upstream-task-`). */
const MODERN_TASK_SERVER = `${FIXTURES}/modern-task-server.mjs`;
/** Every task id the fixture hands out starts so: none may reach a caller, a record or a log. */
const UPSTREAM_TASK_ID = 'upstream-task-';

/**
 * Tools whose upstream runs them as tasks (2025-11-25 `execution.taskSupport`) are offered and
 * called through Toolplane: a task-required tool as a task upstream (params.task, tasks/get,
 * tasks/result), a task-optional one plainly unless a task was asked for; a caller that leaves
 * cancels the upstream task (tasks/cancel); the upstream's task id stays with Toolplane.
 */
describe('tasks upstream', () => {
  let h: Harness;
  let surveyHttp: RunningUpstream;
  const answers: unknown[] = [];

  beforeAll(async () => {
    h = await startHarness();
    for (const [name, args] of [
      ['tasks', [TASK_SERVER]],
      ['everything', [EVERYTHING, 'stdio']],
      ['survey', [MODERN_TASK_SERVER]],
    ] as const) {
      const registered = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', command: 'node', args });
      expect(registered.status).toBe(201);
    }
    surveyHttp = await startHttpUpstream([MODERN_TASK_SERVER, 'http'], '/mcp');
    expect((await h.api.post('/api/v1/sources', { name: 'remote', transport: 'streamable-http', url: surveyHttp.url })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await surveyHttp?.stop();
  });

  const invoke = async (tool: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    const response = await fetch(`${h.url}/api/v1/tools/${tool}/invoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ arguments: args }),
      ...(signal ? { signal } : {}),
    });
    const body = (await response.json()) as any;
    answers.push(body);
    return { status: response.status, body };
  };

  const mcpList = async (): Promise<Record<string, unknown>[]> => {
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    return mcpAnswer(await response.text()).result.tools;
  };

  it('offers task-required tools again, in the REST catalog and on /mcp, with their execution', async () => {
    const rest = await h.api.get('/api/v1/tools?limit=500');
    const names = (rest.body.items as { qualifiedName: string }[]).map((tool) => tool.qualifiedName);
    expect(names).toEqual(expect.arrayContaining(['tasks__research', 'tasks__crunch', 'everything__simulate-research-query']));
    const research = await h.api.get('/api/v1/tools/tasks__research');
    expect(research.body).toMatchObject({ unusableReason: null, definition: { execution: { taskSupport: 'required' } } });
    const listed = new Map((await mcpList()).map((tool) => [tool.name, tool]));
    expect(listed.get('tasks__research')).toMatchObject({ execution: { taskSupport: 'required' } });
    expect(listed.get('everything__simulate-research-query')).toMatchObject({ execution: { taskSupport: 'required' } });
  });

  it('refuses a tool that runs only as a task to a 2026-07-28 caller without the tasks extension (-32021), naming the extension', async () => {
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'tasks__research', authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'tasks__research',
          arguments: { tag: 'refused', steps: 1, stepMs: 1 },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'no-tasks', version: '1' } },
        },
      }),
    });
    expect(mcpAnswer(await response.text()).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    // Nothing was called: no execution names the refused call.
    expect(await h.sql(`SELECT id FROM executions WHERE arguments->>'tag' = 'refused'`)).toEqual([]);
  });

  it('calls a task-required tool as a task upstream and answers its result', async () => {
    const answer = await invoke('tasks__research', { tag: 'study', steps: 3, stepMs: 50 });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'succeeded', isError: false, result: { content: [{ type: 'text', text: 'study done after 3 steps' }] } });
  });

  it("calls server-everything's simulate-research-query, which must run as a task", async () => {
    const answer = await invoke('everything__simulate-research-query', { topic: 'tides' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: expect.stringContaining('# Research Report: tides') }] } });
  }, 30_000);

  it('calls a task-optional tool plainly when no task was asked for', async () => {
    const answer = await invoke('tasks__crunch', { tag: 'plain', steps: 2, stepMs: 10 });
    expect(answer.body).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'plain done after 2 steps' }] } });
  });

  it('cancels the upstream task (tasks/cancel) when the caller goes away', async () => {
    const caller = new AbortController();
    const call = invoke('tasks__research', { tag: 'abandoned', steps: 200, stepMs: 50 }, caller.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 700));
    caller.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    let cancelled: { tasks: string[]; plainCalls: number } | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      cancelled = (await invoke('tasks__cancellations', {})).body.result.structuredContent;
      if (cancelled!.tasks.includes('abandoned')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(cancelled!.tasks).toEqual(['abandoned']);
    const [row] = await h.sql<{ status: string }>(`SELECT status FROM executions WHERE qualified_name = 'tasks__research' AND arguments->>'tag' = 'abandoned'`);
    expect(row?.status).toBe('cancelled');
  });

  /** A 2025-11-25 JSON-RPC request to /mcp, its answer kept with the others. */
  const mcp = async (method: string, params: Record<string, unknown>) => {
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: Math.floor(Math.random() * 1e9), method, params }),
    });
    const body = mcpAnswer(await response.text());
    answers.push(body);
    return body;
  };

  const cancellations = async (tag: string) => {
    let cancelled: { tasks: string[] } | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      cancelled = (await invoke('tasks__cancellations', {})).body.result.structuredContent;
      if (cancelled!.tasks.includes(tag)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return cancelled!.tasks;
  };

  it("runs a task-optional tool as a task upstream when an MCP caller asks for a task, and the caller's tasks/cancel reaches the upstream task", async () => {
    const quick = await mcp('tools/call', { name: 'tasks__crunch', arguments: { tag: 'mcp-quick', steps: 2, stepMs: 20 }, task: {} });
    const quickId = quick.result.task.taskId as string;
    expect(quickId).not.toContain(UPSTREAM_TASK_ID);
    expect((await mcp('tasks/result', { taskId: quickId })).result).toMatchObject({ content: [{ type: 'text', text: 'mcp-quick done after 2 steps' }] });
    // It ran as a task upstream: the fixture's task ids were handed to the call's task row, and only there.
    const [quickRow] = await h.sql<{ upstream_task_id: string | null }>(`SELECT upstream_task_id FROM execution_tasks WHERE id = $1`, [quickId]);
    expect(quickRow?.upstream_task_id).toMatch(new RegExp(`^${UPSTREAM_TASK_ID}`));

    const long = await mcp('tools/call', { name: 'tasks__crunch', arguments: { tag: 'mcp-cancelled', steps: 200, stepMs: 50 }, task: {} });
    const longId = long.result.task.taskId as string;
    await new Promise((resolve) => setTimeout(resolve, 700));
    await mcp('tasks/cancel', { taskId: longId });
    expect(await cancellations('mcp-cancelled')).toContain('mcp-cancelled');
    expect((await mcp('tasks/get', { taskId: longId })).result).toMatchObject({ taskId: longId, status: 'cancelled' });
  });

  it.each(['survey', 'remote'])('calls a 2026-07-28 tool as a task upstream (the tasks extension) when its caller asks for a task, and its tasks/cancel reaches it (%s)', async (source) => {
    const surveyed = async () => (await invoke(`${source}__cancellations`, {})).body.result.structuredContent as { tasks: string[]; taskCalls: number };
    expect((await h.api.get(`/api/v1/sources/${source}`)).body).toMatchObject({ health: 'healthy', protocol: { era: 'modern' } });
    // Asked for no task: a plain call, which the server answers in its request.
    expect((await invoke(`${source}__survey`, { tag: 'plain', ms: 10 })).body).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'plain surveyed' }] } });
    expect((await surveyed()).taskCalls).toBe(0);

    const quick = await mcp('tools/call', { name: `${source}__survey`, arguments: { tag: 'modern-quick', ms: 300 }, task: {} });
    const quickId = quick.result.task.taskId as string;
    expect((await mcp('tasks/result', { taskId: quickId })).result).toMatchObject({ content: [{ type: 'text', text: 'modern-quick surveyed' }] });
    expect((await surveyed()).taskCalls).toBe(1);
    const [quickRow] = await h.sql<{ upstream_task_id: string | null }>(`SELECT upstream_task_id FROM execution_tasks WHERE id = $1`, [quickId]);
    expect(quickRow?.upstream_task_id).toMatch(/^modern-upstream-task-/);

    const long = await mcp('tools/call', { name: `${source}__survey`, arguments: { tag: 'modern-cancelled', ms: 60_000 }, task: {} });
    const longId = long.result.task.taskId as string;
    await new Promise((resolve) => setTimeout(resolve, 500));
    await mcp('tasks/cancel', { taskId: longId });
    let cancelled: string[] = [];
    for (let attempt = 0; attempt < 50 && !cancelled.includes('modern-cancelled'); attempt++) {
      cancelled = (await surveyed()).tasks;
      if (!cancelled.includes('modern-cancelled')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(cancelled).toEqual(['modern-cancelled']);
    expect((await mcp('tasks/get', { taskId: longId })).result).toMatchObject({ taskId: longId, status: 'cancelled' });
  });

  it.each(['survey', 'remote'])("puts what a 2026-07-28 upstream task asks to the caller of Toolplane's task, and its answer reaches the upstream through tasks/update (%s)", async (source) => {
    const asked = await mcp('tools/call', { name: `${source}__confirm`, arguments: { tag: `deploy-${source}` }, task: {} });
    const taskId = asked.result.task.taskId as string;
    let waiting: any;
    for (let attempt = 0; attempt < 100 && waiting?.status !== 'awaiting_input'; attempt++) {
      waiting = (await h.api.get(`/api/v1/executions/${taskId}`)).body;
      if (waiting.status !== 'awaiting_input') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(waiting).toMatchObject({ status: 'awaiting_input', result: { inputRequests: expect.any(Object) } });
    expect((await mcp('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'input_required' });
    const [[key, request]] = Object.entries(waiting.result.inputRequests as Record<string, unknown>);
    expect(request).toEqual({ method: 'elicitation/create', params: expect.objectContaining({ message: `Confirm deploy-${source}?` }) });
    expect((await h.api.post(`/api/v1/executions/${taskId}/input`, { inputResponses: { [key!]: { action: 'accept', content: { ok: true } } } })).status).toBe(202);
    expect((await mcp('tasks/result', { taskId })).result).toMatchObject({ content: [{ type: 'text', text: `deploy-${source} confirmed` }] });
  });

  /** A 2026-07-28 request to /mcp from a caller that declares the tasks extension and elicitation. */
  const modernMcp = async (method: string, params: Record<string, unknown>) => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'rounds-then-task', version: '1' },
    };
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        // The tool a call names, the task a task request names.
        'mcp-name': String(params.name ?? params.taskId),
        authorization: `Bearer ${h.adminKey}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
    });
    const answer = mcpAnswer(await response.text());
    answers.push(answer);
    return answer;
  };

  it.each(['survey', 'remote'])('answers the rounds of input a 2026-07-28 upstream asks before its task in the request, and becomes a task when the upstream makes one (%s)', async (source) => {
    const name = `${source}__test_tool_with_task`;
    const round1 = (await modernMcp('tools/call', { name, arguments: {} })).result;
    expect(round1).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } }, requestState: expect.any(String) });
    expect(round1).not.toHaveProperty('taskId');
    // No task was made for the round: its execution is on the record as input_required.
    expect(await h.sql(`SELECT id FROM execution_tasks WHERE qualified_name = $1`, [name])).toEqual([]);

    const round2 = (await modernMcp('tools/call', { name, arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: `Alice-${source}` } } }, requestState: round1.requestState })).result;
    expect(round2).toMatchObject({ resultType: 'task', taskId: expect.any(String), status: 'working' });
    expect(round2).not.toHaveProperty('requestState');
    expect(round2).not.toHaveProperty('inputRequests');
    const taskId = round2.taskId as string;
    expect(taskId).not.toContain(UPSTREAM_TASK_ID);
    let state: any;
    for (let attempt = 0; attempt < 100 && state?.status !== 'completed'; attempt++) {
      state = (await modernMcp('tasks/get', { taskId })).result;
      if (state.status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(state).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: `Hello, Alice-${source}` }] } });
    const [row] = await h.sql<{ upstream_task_id: string | null }>(`SELECT upstream_task_id FROM execution_tasks WHERE id = $1`, [taskId]);
    expect(row?.upstream_task_id).toMatch(/^modern-upstream-task-/);
  });

  it("asks again when a round's answers are not answers (dropped, as the SDK drops them), and relays the upstream refusing a state it did not hand out", async () => {
    const name = 'survey__test_tool_with_task';
    // Answers that are no answers leave the state alone: the upstream asks again, and no task is made.
    const tasksOf = () => h.sql(`SELECT id FROM execution_tasks WHERE qualified_name = $1 ORDER BY id`, [name]);
    const tasksBefore = await tasksOf();
    for (const inputResponses of ['Alice', { user_name: 'Alice' }, ['Alice']]) {
      const again = await modernMcp('tools/call', { name, arguments: {}, inputResponses, requestState: 'asked-for-user-name' });
      expect(again.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
      expect(again.result).not.toHaveProperty('taskId');
    }
    expect(await tasksOf()).toEqual(tasksBefore);

    const forged = await modernMcp('tools/call', { name, arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Mallory' } } }, requestState: 'forged' });
    expect(forged.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState was not echoed'), data: { code: 'UPSTREAM_PROTOCOL_ERROR' } });
    expect(JSON.stringify(forged)).not.toContain(UPSTREAM_TASK_ID);
  });

  it('keeps the upstream task id out of every answer, record and log line', async () => {
    expect(answers.length).toBeGreaterThan(3);
    expect(JSON.stringify(answers)).not.toContain(UPSTREAM_TASK_ID);
    const history = await h.api.get('/api/v1/executions?limit=100');
    expect(history.body.items.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(history.body)).not.toContain(UPSTREAM_TASK_ID);
    const rows = await h.sql<{ text: string }>(`SELECT row_to_json(e)::text AS text FROM executions e`);
    expect(rows.map((row) => row.text).join('\n')).not.toContain(UPSTREAM_TASK_ID);
    expect(h.process.logs()).not.toContain(UPSTREAM_TASK_ID);
  });
});

import { EventEmitter } from 'node:events';
import type { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../../config/app-config.js';
import { ADMIN } from '../../../shared/principal/principal.js';
import type { Telemetry } from '../../../shared/telemetry.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import type { ExecutionRecord } from '../../executions/domain/execution.js';
import { anExecution } from '../../executions/testing/builders.js';
import { InMemoryExecutionReads } from '../../executions/testing/in-memory-execution-reads.js';
import { InMemoryExecutionTasks } from '../../executions/testing/in-memory-execution-tasks.js';
import { CallTasks } from '../application/call-tasks.js';
import type { ExecuteToolCommand, ExecutedCall } from '../application/execute-tool/execute-tool.command.js';
import { InvokeController } from './invoke.controller.js';

describe('InvokeController: answers that come before the outcome', () => {
  let tasks: InMemoryExecutionTasks;
  let sent: ExecuteToolCommand[];
  let answer: (command: ExecuteToolCommand) => ExecutedCall;
  let controller: InvokeController;
  const clock = new FixedClock('2026-03-01T00:00:00.000Z');

  beforeEach(() => {
    tasks = new InMemoryExecutionTasks();
    sent = [];
    const commands = {
      execute: async (command: ExecuteToolCommand) => {
        sent.push(command);
        const executed = answer(command);
        // A call that runs (neither refused nor held) is accepted first, as the pipeline does.
        if (!executed.waiting && executed.record.status === 'succeeded') await command.onAccepted?.({ qualifiedName: command.input.qualifiedName, sourceId: 'src-1', sourceName: 'files', group: null });
        return executed;
      },
    } as unknown as CommandBus;
    const telemetry = { httpServer: () => ({ run: <T>(work: () => T) => work(), end: () => undefined }) } as unknown as Telemetry;
    const callTasks = new CallTasks(commands, tasks, new InMemoryExecutionReads(), clock, { executionRetentionMs: null } as AppConfig);
    controller = new InvokeController(commands, telemetry, callTasks, clock);
  });

  const recordOf = (command: ExecuteToolCommand): ExecutionRecord => {
    const view = anExecution({ id: command.input.executionId ?? anExecution().id, qualifiedName: command.input.qualifiedName });
    return { ...view, startedAt: new Date(view.startedAt) };
  };
  const invoke = async (headers: { prefer?: string; accept?: string }) => {
    const sentHeaders: Record<string, string> = {};
    let status = 200;
    const reply = {
      raw: Object.assign(new EventEmitter(), { writableFinished: false }),
      status: (code: number) => ((status = code), reply),
      header: (name: string, value: string) => ((sentHeaders[name.toLowerCase()] = value), reply),
      get statusCode() {
        return status;
      },
    } as unknown as FastifyReply;
    const request = { url: '/api/v1/tools/files__write/invoke', headers: { 'user-agent': 'spec', ...headers }, id: 'req-1', raw: { socket: {} } } as unknown as FastifyRequest;
    const body = await controller.invoke('files__write', { arguments: { path: '/tmp/x' } }, ADMIN, reply, request);
    return { status, headers: sentHeaders, body: body as any };
  };

  it('runs the call as a task with Prefer: respond-async: 202, where it is, and the preference applied', async () => {
    answer = (command) => ({ record: recordOf(command), outputSchema: null });
    const { status, headers, body } = await invoke({ prefer: 'return=minimal, respond-async' });
    expect(status).toBe(202);
    expect(body).toMatchObject({ qualifiedName: 'files__write', status: 'working', result: null, error: null, caller: { principalId: 'admin' } });
    expect(headers).toEqual({ location: `/api/v1/executions/${body.id}`, 'preference-applied': 'respond-async' });
    expect(await tasks.get(body.id)).toMatchObject({ id: body.id, principalId: 'admin', status: 'working', sourceName: 'files' });
    // The task runs under its own signal: the request's end does not stop it.
    expect(sent[0]!.input).toMatchObject({ executionId: body.id, asTask: true });
  });

  it('answers a call refused before it would run as without the preference: its status and error, no task', async () => {
    answer = (command) => ({
      record: { ...recordOf(command), status: 'rejected', result: null, error: { code: 'RATE_LIMITED', message: 'over', retryable: true, retryAfterMs: 3000, rateLimit: { scope: 'principal', limitPerMinute: 1 } } },
      outputSchema: null,
    });
    const { status, headers, body } = await invoke({ prefer: 'respond-async' });
    expect(status).toBe(429);
    expect(body).toMatchObject({ error: { code: 'RATE_LIMITED' }, execution: { status: 'rejected' } });
    expect(headers).toMatchObject({ 'retry-after': '3', 'ratelimit-limit': '1' });
    expect(headers['preference-applied']).toBeUndefined();
    expect(headers.location).toBeUndefined();
    expect(tasks.rows.size).toBe(0);
  });

  it('answers a call held for approval with 202 and where it is, without a preference applied', async () => {
    answer = (command) => {
      const record = recordOf(command);
      const task = { id: record.id, principalId: 'admin', principalName: 'admin', qualifiedName: 'files__write', channel: 'rest' as const, status: 'pending_approval' as const, statusMessage: null, createdAt: clock.now(), updatedAt: clock.now(), ttlMs: null, pollIntervalMs: 1000, cancelRequested: false, upstreamTaskId: null, approvalId: 'ap-1', inputRequests: null, sourceId: null, sourceName: null, group: null };
      return { record: { ...record, status: 'rejected', error: { code: 'APPROVAL_PENDING', message: 'waits', retryable: false } }, outputSchema: null, waiting: { task, approvalId: 'ap-1' } };
    };
    const { status, headers, body } = await invoke({});
    expect(status).toBe(202);
    expect(body).toMatchObject({ status: 'pending_approval', sourceName: 'files', arguments: { path: '/tmp/a' }, error: null, result: null });
    expect(headers).toEqual({ location: `/api/v1/executions/${body.id}` });
  });

  it('answers as usual when the Prefer header asks for nothing it knows', async () => {
    answer = (command) => ({ record: recordOf(command), outputSchema: null });
    for (const prefer of ['wait=5, respond-asyn', 'respond-asynchronously', '"respond-async"', 'x="respond-async, y"']) {
      const before = await tasks.listByPrincipal('admin', undefined, 100);
      const { status, headers, body } = await invoke({ prefer });
      expect([prefer, status, headers]).toEqual([prefer, 200, {}]);
      expect(body.status).toBe('succeeded');
      expect(await tasks.listByPrincipal('admin', undefined, 100)).toEqual(before);
    }
  });
});

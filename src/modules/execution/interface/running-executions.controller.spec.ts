import { EventEmitter } from 'node:events';
import type { StreamableFile } from '@nestjs/common';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../../../config/app-config.js';
import { ADMIN, type Principal } from '../../../shared/principal/principal.js';
import type { Role } from '../../../shared/principal/permissions.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { rejection } from '../../../shared/testing/rejection.js';
import { GetExecutionHandler } from '../../executions/application/get-execution/get-execution.handler.js';
import type { GetExecutionQuery } from '../../executions/application/get-execution/get-execution.query.js';
import type { ExecutionTask } from '../../executions/domain/execution-task.js';
import { anExecution, anExecutionId } from '../../executions/testing/builders.js';
import { InMemoryExecutionReads } from '../../executions/testing/in-memory-execution-reads.js';
import { InMemoryExecutionTasks } from '../../executions/testing/in-memory-execution-tasks.js';
import { CallTasks } from '../application/call-tasks.js';
import type { ExecuteToolCommand, ExecutedCall } from '../application/execute-tool/execute-tool.command.js';
import { RunningExecutionsController } from './running-executions.controller.js';
import { aTask } from '../../executions/testing/builders.js';

const agent = (id: string, role: Role = 'agent'): Principal => ({ ...ADMIN, id, name: id, roles: [role] });

/** A call the spec lets run: its command, and how to end it. */
interface Pending {
  command: ExecuteToolCommand;
  end: (executed: ExecutedCall) => void;
}

describe('RunningExecutionsController', () => {
  let reads: InMemoryExecutionReads;
  let tasks: InMemoryExecutionTasks;
  let clock: FixedClock;
  let calls: Pending[];
  let callTasks: CallTasks;
  let controller: RunningExecutionsController;

  beforeEach(() => {
    reads = new InMemoryExecutionReads();
    tasks = new InMemoryExecutionTasks();
    clock = new FixedClock();
    calls = [];
    const commands = { execute: (command: ExecuteToolCommand) => new Promise<ExecutedCall>((end) => calls.push({ command, end })) } as unknown as CommandBus;
    callTasks = new CallTasks(commands, tasks, reads, clock, { executionRetentionMs: null } as AppConfig);
    const get = new GetExecutionHandler(reads, tasks, clock);
    const queries = { execute: (query: GetExecutionQuery) => get.execute(query) } as unknown as QueryBus;
    controller = new RunningExecutionsController(queries, callTasks, clock);
  });

  const task = (id: string, principalId: string, overrides: Partial<ExecutionTask> = {}): ExecutionTask =>
    aTask({ id, principalId, principalName: principalId, createdAt: clock.now(), ...overrides });

  /** A reply whose raw response can close, as a client leaving closes it. */
  const aReply = () => {
    const raw = Object.assign(new EventEmitter(), { writableFinished: false });
    const reply = { raw, status: () => reply, header: () => reply } as unknown as FastifyReply & { raw: EventEmitter };
    return reply;
  };
  /** The events written to a stream, once it ended. */
  const eventsOf = async (file: StreamableFile): Promise<{ event: string; data: any }[]> => {
    let text = '';
    for await (const chunk of file.getStream()) text += String(chunk);
    return text
      .split('\n\n')
      .filter((block) => block.startsWith('event:'))
      .map((block) => ({ event: /^event: (.*)$/m.exec(block)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }));
  };

  describe('cancel', () => {
    it('answers 404 for an unknown id, one that is not a uuid, and another principal’s call', async () => {
      await tasks.create(task(anExecutionId(1), 'alice'));
      for (const [id, who] of [[anExecutionId(2), 'alice'], ['../etc', 'alice'], [anExecutionId(1), 'bob']] as const) {
        expect(await rejection(controller.cancel(id, agent(who)))).toMatchObject({ kind: 'not_found', code: 'EXECUTION_NOT_FOUND' });
      }
      expect((await tasks.get(anExecutionId(1)))!.cancelRequested).toBe(false);
    });

    it('answers 409 EXECUTION_FINISHED for a call with its final record, whether it was a task or not', async () => {
      const done = anExecution({ caller: { principalId: 'alice', principalName: 'alice' } });
      reads.record(done);
      expect(await rejection(controller.cancel(done.id, agent('alice')))).toMatchObject({ kind: 'conflict', code: 'EXECUTION_FINISHED' });
      await tasks.create(task(done.id, 'alice'));
      expect(await rejection(controller.cancel(done.id, agent('alice')))).toMatchObject({ code: 'EXECUTION_FINISHED' });
      expect((await tasks.get(done.id))!.cancelRequested).toBe(false);
    });

    it('asks a waiting call to stop and answers it as it stands, aborting it at once when it runs here', async () => {
      const state = await callTasks.start({ input: { qualifiedName: 'files__write', arguments: {} }, caller: { principalId: 'alice', principalName: 'alice' }, channel: 'rest', listeners: {} } as unknown as ExecuteToolCommand);
      const id = state.task!.id;
      const shown = await controller.cancel(id, agent('alice'));
      expect(shown).toMatchObject({ id, status: 'working', caller: { principalId: 'alice' }, result: null, error: null });
      expect((await tasks.get(id))!.cancelRequested).toBe(true);
      expect(calls[0]!.command.signal!.aborted).toBe(true);
    });
  });

  describe('events', () => {
    it('answers a final execution with its result alone, its payloads shown as the principal may see them', async () => {
      const done = anExecution({ caller: { principalId: 'alice', principalName: 'alice' } });
      reads.record(done);
      expect(await eventsOf(await controller.events(done.id, agent('alice'), aReply()))).toEqual([{ event: 'result', data: done }]);
      const auditor = agent('audit', 'auditor');
      expect(await eventsOf(await controller.events(done.id, auditor, aReply()))).toEqual([{ event: 'result', data: { ...done, arguments: null, result: null } }]);
      expect(await rejection(controller.events(done.id, agent('bob'), aReply()))).toMatchObject({ code: 'EXECUTION_NOT_FOUND' });
    });

    it('tells the status, relays progress and log messages of a call running here, then ends with the result', async () => {
      const state = await callTasks.start({ input: { qualifiedName: 'files__write', arguments: {} }, caller: { principalId: 'alice', principalName: 'alice' }, channel: 'rest', listeners: {} } as unknown as ExecuteToolCommand);
      const id = state.task!.id;
      const stream = await controller.events(id, agent('alice'), aReply());
      const listeners = calls[0]!.command.listeners;
      listeners.onProgress!({ progress: 1, total: 2 });
      listeners.log!.onMessage({ level: 'info', data: 'half way', logger: 'tool' });
      listeners.onProgress!({ progress: 2, total: 2, message: 'done' });
      const record = anExecution({ id, caller: { principalId: 'alice', principalName: 'alice' } });
      reads.record(record);
      calls[0]!.end({ record: { ...record, startedAt: new Date(record.startedAt) }, outputSchema: null } as ExecutedCall);
      expect(await eventsOf(stream)).toEqual([
        { event: 'status', data: { status: 'working' } },
        { event: 'progress', data: { progress: 1, total: 2 } },
        { event: 'log', data: { level: 'info', data: 'half way', logger: 'tool' } },
        { event: 'progress', data: { progress: 2, total: 2, message: 'done' } },
        { event: 'result', data: record },
      ]);
    });

    it('ends the stream when the client leaves, and the call goes on', async () => {
      const state = await callTasks.start({ input: { qualifiedName: 'files__write', arguments: {} }, caller: { principalId: 'alice', principalName: 'alice' }, channel: 'rest', listeners: {} } as unknown as ExecuteToolCommand);
      const reply = aReply();
      const stream = await controller.events(state.task!.id, agent('alice'), reply);
      reply.raw.emit('close');
      expect(await eventsOf(stream)).toEqual([{ event: 'status', data: { status: 'working' } }]);
      expect(calls[0]!.command.signal!.aborted).toBe(false);
      expect((await tasks.get(state.task!.id))!.cancelRequested).toBe(false);
    });
  });
});

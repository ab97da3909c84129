import { Body, Get, HttpCode, Inject, Param, Post, Res, type StreamableFile } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import { Conflict, ValidationFailed } from '../../../shared/domain-error.js';
import { ApiController } from '../../../shared/http/api-controller.js';
import { onClientGone } from '../../../shared/http/client-gone.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ServerSentEvents } from '../../../shared/http/server-sent-events.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { Clock } from '../../../shared/unit-of-work.js';
import { isUuid } from '../../../shared/uuid.js';
import { executionNotFound, isWaiting, waitingView, type ShownExecution } from '../../executions/application/execution-view.js';
import { GetExecutionQuery } from '../../executions/application/get-execution/get-execution.query.js';
import type { TaskState } from '../../executions/application/task-state.js';
import type { WaitingStatus } from '../../executions/domain/execution-task.js';
import { ExecutionResponseDto } from '../../executions/interface/execution.dto.js';
import { shownTo, withPayloadsFor } from '../../executions/interface/execution-visibility.js';
import { CallTasks, TASK_POLL_MS } from '../application/call-tasks.js';
import type { TaskEvent } from '../application/task-events.js';
import { progressData } from './progress-event-stream.js';
import { inputResponsesProblem } from '../application/task-input.js';
import { ExecutionInputDto } from './execution-input.dto.js';

/** A call that outlived its request, followed as it runs (`…/events`) or stopped (`…/cancel`). */
@ApiController('api/v1/executions', 'executions')
export class RunningExecutionsController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get(':id/events')
  @ApiOperation({
    summary: "Follow an execution's events",
    description:
      'Server-Sent Events: `status` (working, pending_approval, awaiting_input) as it changes, `progress` and `log` while it runs in the process that answers, ' +
      'then one `result` event carrying the execution as `GET /api/v1/executions/{id}` shows it, and the stream ends. ' +
      'An execution already final gets its `result` alone. A comment every 15 s keeps a quiet stream open; leaving it does not touch the call.',
  })
  @Requires('executions:read')
  @ApiOkResponse({ description: 'The events.', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'EXECUTION_NOT_FOUND: unknown, or the call of another principal without executions:read-all.' })
  async events(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    const shown = shownTo(principal, await this.queries.execute(new GetExecutionQuery(id)));
    const stream = new ServerSentEvents();
    void reply.status(200).header('cache-control', 'no-cache');
    if (!isWaiting(shown)) {
      stream.send('result', shown);
      stream.end();
      return stream.body();
    }
    stream.send('status', { status: shown.status });
    const leaving = new CallerDeparture();
    const stopListening = onClientGone(reply.raw, () => leaving.abort());
    void this.follow(shown.id, shown.caller.principalId, shown.status, principal, stream, leaving).finally(() => {
      stopListening();
      stream.end();
    });
    return stream.body();
  }

  @Post(':id/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel an execution that has not ended',
    description:
      'Its caller only. A call running is aborted and the upstream told (notifications/cancelled); one waiting for approval is withdrawn. ' +
      'Answers the execution as it is now: it ends `cancelled` shortly.',
  })
  @Requires('tools:invoke')
  @ApiResponse({ status: 202, type: ExecutionResponseDto, description: 'Cancellation asked.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'EXECUTION_NOT_FOUND: unknown, or not a call of this principal.' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'EXECUTION_FINISHED: it has already ended.' })
  async cancel(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ShownExecution> {
    if (!isUuid(id)) throw executionNotFound(id);
    const before = await this.tasks.state(id, principal.id);
    if (!before) throw executionNotFound(id);
    if (before.final) throw new Conflict('EXECUTION_FINISHED', `Execution ${id} has already ended (${before.status}): there is nothing to cancel.`);
    const after = (await this.tasks.cancel(id, principal.id)) ?? before;
    return withPayloadsFor(principal, this.viewOf(after));
  }

  @Post(':id/input')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Answer what a waiting execution asks',
    description:
      'Its caller only. While an execution is `awaiting_input` (its upstream asked, during the task, for an elicitation, a sampling or roots), ' +
      '`result.inputRequests` holds what is asked under keys of its own; answer each under its key. Answered keys leave the list; the ' +
      'execution runs on once every one is answered. Answers the execution as it is now.',
  })
  @Requires('tools:invoke')
  @ApiResponse({ status: 202, type: ExecutionResponseDto, description: 'Answers taken.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'VALIDATION_FAILED: inputResponses is not a map of answers.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'EXECUTION_NOT_FOUND: unknown, or not a call of this principal.' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'EXECUTION_FINISHED: it has already ended.' })
  async input(@Param('id') id: string, @Body() body: ExecutionInputDto, @CurrentPrincipal() principal: Principal): Promise<ShownExecution> {
    const problem = inputResponsesProblem(body.inputResponses);
    if (problem) throw new ValidationFailed([{ path: problem.slice(0, problem.indexOf(':')), message: problem.slice(problem.indexOf(':') + 2) }]);
    if (!isUuid(id)) throw executionNotFound(id);
    const before = await this.tasks.state(id, principal.id);
    if (!before) throw executionNotFound(id);
    if (before.final) throw new Conflict('EXECUTION_FINISHED', `Execution ${id} has already ended (${before.status}): it asks for nothing.`);
    const after = (await this.tasks.answerInput(id, principal.id, body.inputResponses)) ?? before;
    return withPayloadsFor(principal, this.viewOf(after));
  }

  /**
   * Relays the call's events while it runs here, tells each change of its waiting status, and
   * ends with its result; stops early when the client leaves (the call goes on).
   */
  private async follow(id: string, owner: string, status: WaitingStatus, principal: Principal, stream: ServerSentEvents, leaving: CallerDeparture): Promise<void> {
    let last = status;
    const tell = (next: WaitingStatus) => {
      if (next === last) return;
      last = next;
      stream.send('status', { status: next });
    };
    let relaying = false;
    let ended = false;
    const final = this.tasks.awaitFinal(id, owner, leaving).then(
      (view) => stream.send('result', withPayloadsFor(principal, view)),
      () => undefined, // the client left, or the task is gone: the stream just ends
    );
    void final.finally(() => (ended = true));
    const left = new Promise<void>((resolve) => leaving.addEventListener('abort', () => resolve()));
    while (!ended && !leaving.aborted) {
      if (!relaying) {
        const events = this.tasks.events(id);
        if (events) {
          relaying = true;
          void relay(events, stream, tell, () => ended || leaving.aborted).finally(() => (relaying = false));
        }
      }
      await Promise.race([final, left, new Promise((resolve) => setTimeout(resolve, TASK_POLL_MS).unref())]);
      if (ended || leaving.aborted) break;
      const state = await this.tasks.state(id, owner).catch(() => undefined);
      if (state && !state.final) tell(state.task!.status);
    }
    // A client that left has nothing more to hear; awaitFinal lets go of it on its own.
    if (!leaving.aborted) await final;
  }

  private viewOf(state: TaskState): ShownExecution {
    return state.record ?? waitingView(state.task!, undefined, this.clock.now());
  }
}

/** A running call's events onto the stream, until it ends or `stop` says so. */
async function relay(events: AsyncIterable<TaskEvent>, stream: ServerSentEvents, tell: (status: WaitingStatus) => void, stop: () => boolean): Promise<void> {
  for await (const event of events) {
    if (stop()) return;
    switch (event.kind) {
      case 'progress':
        stream.send('progress', progressData(event));
        break;
      case 'log':
        stream.send('log', { level: event.level, data: event.data, ...(event.logger !== undefined ? { logger: event.logger } : {}) });
        break;
      case 'status':
        // A final status is told by the result event.
        if (event.status === 'working' || event.status === 'pending_approval') tell(event.status);
        break;
    }
  }
}

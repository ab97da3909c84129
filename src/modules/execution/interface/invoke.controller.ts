import { heavySteps, isHeavy } from '../../../shared/heavy-steps.js';
import { applyDecorators, Body, Inject, Param, Post, Req, Res, StreamableFile } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Telemetry } from '../../../shared/telemetry.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ExecuteToolCommand, type ExecutedCall, type ExecuteToolInput } from '../application/execute-tool/execute-tool.command.js';
import type { ExecutionCaller, ExecutionRecord } from '../../executions/domain/execution.js';
import { waitingView, type ExecutionView, type WaitingExecutionView } from '../../executions/application/execution-view.js';
import { Clock } from '../../../shared/unit-of-work.js';
import { prefersRespondAsync } from '../../../shared/http/prefer-header.js';
import { CallTasks } from '../application/call-tasks.js';
import { ExecutionResponseDto } from '../../executions/interface/execution.dto.js';
import { ExecutionFailureDto, InvokeToolDto } from './invoke.dto.js';
import { httpStatusOf } from './execution-http-status.js';
import { plainInvokeBody } from './plain-invoke-body.js';
import { acceptsEventStream, ProgressEventStream } from './progress-event-stream.js';
import { errorPayloadOf } from '../../../shared/http/domain-error.filter.js';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import { clientOf } from '../../../shared/http/client-of.js';
import { firstHeaderValue } from '../../../shared/http/header-value.js';
import { onClientGone } from '../../../shared/http/client-gone.js';
import { ApiController } from '../../../shared/http/api-controller.js';
import { callerTokenOf } from '../../../shared/principal/caller-token.js';

const API_PATH = 'api/v1';
const INVOKE_PATH = 'tools/:qualifiedName/invoke';
const GROUP_INVOKE_PATH = 'groups/:group/tools/:toolName/invoke';
/** The invoke routes as Fastify knows them (see RequestEdgeOptions.callRoutes). */
export const INVOKE_ROUTE = `POST /${API_PATH}/${INVOKE_PATH}`;
export const GROUP_INVOKE_ROUTE = `POST /${API_PATH}/${GROUP_INVOKE_PATH}`;

/** A tool group's name and the name it serves the tool under, when a call comes through one. */
interface Called {
  name: string;
  group?: string;
}

@ApiController(API_PATH, 'tools')
export class InvokeController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(Telemetry) private readonly telemetry: Telemetry,
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Post(INVOKE_PATH)
  @ApiOperation({ summary: 'Call a tool' })
  @ApiHeader({ name: 'Accept', required: false, description: 'With text/event-stream, a call whose upstream reports progress is answered as Server-Sent Events: `progress` events, then one `result` event holding the status and body of the plain answer.' })
  @InvokeRoute({ 400: 'invalid_arguments', 404: 'unknown tool' })
  async invoke(
    @Param('qualifiedName') qualifiedName: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Req() request: FastifyRequest,
  ): Promise<Answer | StreamableFile> {
    return this.invokeCalled('/api/v1/tools/{qualifiedName}/invoke', { name: qualifiedName }, body, principal, reply, request);
  }

  @Post(GROUP_INVOKE_PATH)
  @ApiOperation({
    summary: 'Call a tool through a tool group',
    description:
      "By the name the group serves it under, with the group's overrides: its locked arguments are added (a caller that gives one gets 400 ARGUMENT_LOCKED) and its defaults fill those left out. The execution names the group.",
  })
  @InvokeRoute({ 400: 'invalid_arguments (ARGUMENT_LOCKED among them)', 404: 'unknown group (GROUP_NOT_FOUND), or no tool of that name in it (TOOL_NOT_FOUND)' })
  async invokeInGroup(
    @Param('group') group: string,
    @Param('toolName') toolName: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Req() request: FastifyRequest,
  ): Promise<Answer | StreamableFile> {
    return this.invokeCalled('/api/v1/groups/{group}/tools/{toolName}/invoke', { name: toolName, group }, body, principal, reply, request);
  }

  private async invokeCalled(
    route: string,
    called: Called,
    body: unknown,
    principal: Principal,
    reply: FastifyReply,
    request: FastifyRequest,
  ): Promise<Answer | StreamableFile> {
    // The HTTP SERVER span the upstream call's CLIENT span goes under (traces on).
    const operation = this.telemetry.httpServer('POST', route, request.url.split('?')[0]!, request.headers, clientOf(request));
    let status: number | undefined;
    let streamed: Promise<number> | undefined;
    try {
      const answer = await operation.run(() => this.serve(called, body, principal, reply, request, (done) => (streamed = done)));
      status = reply.statusCode;
      return answer;
    } finally {
      // A streamed answer's span ends with its result event.
      if (streamed) void streamed.then((final) => operation.end(final));
      else operation.end(status);
    }
  }

  private async serve(
    called: Called,
    body: unknown,
    principal: Principal,
    reply: FastifyReply,
    request: FastifyRequest,
    onStream: (done: Promise<number>) => void,
  ): Promise<Answer | StreamableFile> {
    // The common body needs no class-validator pass; anything else gets one, which names every problem.
    const plain = plainInvokeBody(body);
    const { value, problems } = plain ? { value: plain, problems: [] } : await validateDto(InvokeToolDto, body);
    const input: ExecuteToolInput = {
      qualifiedName: called.name,
      ...(called.group !== undefined ? { group: called.group } : {}),
      arguments: value.arguments,
      timeoutMs: value.timeoutMs,
      inputResponses: value.inputResponses,
      requestState: value.requestState,
      shapeProblems: problems,
      scope: principal.scope,
      rateLimitPerMinute: principal.rateLimitPerMinute,
      requestId: request.id,
      callerToken: callerTokenOf(principal),
    };
    const caller: ExecutionCaller = {
      principalId: principal.id,
      principalName: principal.name,
      clientName: firstHeaderValue(request.headers['user-agent'])?.slice(0, 200),
      correlationId: firstHeaderValue(request.headers['x-correlation-id'])?.slice(0, 200),
    };
    if (prefersRespondAsync(firstHeaderValue(request.headers['prefer']))) {
      // Run detached: the answer says where the execution is; the caller leaving changes nothing.
      const started = await this.tasks.submit(new ExecuteToolCommand(input, caller, 'rest', new CallerDeparture()));
      // Refused before it would run: answered as without the preference.
      if ('executed' in started) return this.answerOf(reply, started.executed);
      void reply.header('Preference-Applied', 'respond-async');
      return this.accepted(reply, waitingView(started.task.task!, undefined, this.clock.now()));
    }
    // The caller leaving (connection closed before the answer) cancels the call upstream.
    const gone = new CallerDeparture();
    const stopListening = onClientGone(reply.raw, () => gone.abort());
    const events = acceptsEventStream(firstHeaderValue(request.headers['accept'])) ? new ProgressEventStream() : undefined;
    const command = new ExecuteToolCommand(input, caller, 'rest', gone, events ? { onProgress: (update) => events.progress(update) } : {});
    const call: Promise<ExecutedCall> = this.commands.execute(command);
    if (events && (await Promise.race([call.then(settled, settled), events.opened.then(() => 'opened' as const)])) === 'opened') {
      // Progress came first: the answer is a stream of events, the result its last one.
      const done = call
        .then(
          (executed) => {
            const { status, body } = this.finalAnswerOf(executed);
            events.finish(status, body);
            return status;
          },
          (error: unknown) => {
            const payload = errorPayloadOf(error);
            events.finish(payload.status, { error: { code: payload.code, message: payload.message, details: payload.details } });
            return payload.status;
          },
        )
        .finally(stopListening);
      onStream(done);
      void reply.status(200).header('cache-control', 'no-cache');
      return events.body();
    }
    try {
      return await this.answerOf(reply, await call);
    } finally {
      events?.close();
      stopListening();
    }
  }

  /** The answer of a call that ended (its status, Retry-After and RateLimit-* headers), or 202 for one that waits for a decision. */
  private async answerOf(reply: FastifyReply, executed: ExecutedCall): Promise<Answer> {
    // A call that waits for a decision is answered at once with where it is.
    if (executed.waiting) return this.accepted(reply, this.waitingOf(executed));
    const record = executed.record;
    // Writing out a large result or large arguments (the answer's JSON) is a heavy step of its own.
    if (isHeavy(record.result) || isHeavy(record.arguments)) await heavySteps.turn();
    const status = httpStatusOf(record);
    void reply.status(status);
    if (record.error?.retryAfterMs !== undefined) void reply.header('Retry-After', String(Math.max(1, Math.ceil(record.error.retryAfterMs / 1000))));
    const limit = record.error?.rateLimit;
    if (limit) {
      // The IETF RateLimit header fields: the budget, what is left of it, and seconds until a call fits.
      void reply
        .header('RateLimit-Limit', String(limit.limitPerMinute))
        .header('RateLimit-Remaining', '0')
        .header('RateLimit-Reset', String(Math.max(1, Math.ceil((record.error?.retryAfterMs ?? 0) / 1000))))
        .header('RateLimit-Policy', `${limit.limitPerMinute};w=60`);
    }
    return answerOf(record);
  }

  /** 202: the execution has no outcome yet; `Location` is where it will have one. */
  private accepted(reply: FastifyReply, view: WaitingExecutionView): WaitingExecutionView {
    void reply.status(202).header('Location', `/${API_PATH}/executions/${view.id}`);
    return view;
  }

  private waitingOf(executed: ExecutedCall): WaitingExecutionView {
    return waitingView(executed.waiting!.task, executed.record, this.clock.now());
  }

  /** The status and body a streamed answer's result event carries. */
  private finalAnswerOf(executed: ExecutedCall): { status: number; body: Answer } {
    if (executed.waiting) return { status: 202, body: this.waitingOf(executed) };
    return { status: httpStatusOf(executed.record), body: answerOf(executed.record) };
  }
}

const settled = () => 'settled' as const;

type Answer = ExecutionView | WaitingExecutionView | { error: unknown; execution: ExecutionView };

/** The body of an invoke's answer: the execution, or for a status of 400 and above the error with it. */
function answerOf(record: ExecutionRecord): Answer {
  const view = toView(record);
  if (httpStatusOf(record) < 400) return view;
  const { retryable, retryAfterMs, ...rest } = record.error!;
  return { error: { ...rest, retryable, retryAfterMs, details: record.error!.details ?? [], ...credentialFields(record) }, execution: view };
}

/** A call that needs its caller's own credential says, beside its details, what is missing and where to connect. */
function credentialFields(record: ExecutionRecord): { missing?: string[]; connectUrl?: string } {
  const code = record.error?.code;
  if (code !== 'UPSTREAM_CREDENTIAL_REQUIRED' && code !== 'UPSTREAM_CONSENT_REQUIRED') return {};
  const details = record.error?.details ?? [];
  const missing = details.filter((d) => d.path === 'missing').map((d) => d.message);
  const connectUrl = details.find((d) => d.path === 'connectUrl')?.message;
  return { ...(missing.length > 0 ? { missing } : {}), ...(connectUrl ? { connectUrl } : {}) };
}

/** The execution as GET /api/v1/executions/{id} shows it. */
export function toView(record: ExecutionRecord): ExecutionView {
  // Member by member: spreading the record and then setting four of its members took V8's slow path (about 3 µs a call).
  return {
    id: record.id,
    toolId: record.toolId,
    qualifiedName: record.qualifiedName,
    sourceId: record.sourceId,
    sourceName: record.sourceName,
    definitionHash: record.definitionHash,
    caller: record.caller,
    channel: record.channel,
    arguments: record.arguments,
    status: record.status,
    isError: record.isError,
    result: record.result,
    error: record.error,
    attempts: record.attempts,
    startedAt: record.startedAt.toISOString(),
    durationMs: record.durationMs,
    traceId: record.traceId ?? null,
    group: record.group ?? null,
    interceptors: record.interceptors ?? [],
  };
}

/** What every invoke route declares: its permission, body and answers (the 400 and 404 said in its own words). */
function InvokeRoute(own: { 400: string; 404: string }): MethodDecorator {
  return applyDecorators(
    Requires('tools:invoke'),
    ApiBody({ type: InvokeToolDto }),
    ApiHeader({ name: 'X-Correlation-Id', required: false, description: 'Recorded with the execution.' }),
    ApiHeader({
      name: 'Prefer',
      required: false,
      description: 'With `respond-async` (RFC 7240), the call runs detached and is answered at once with 202. Preferences not known, or not readable, are ignored.',
    }),
    ApiResponse({
      status: 202,
      type: ExecutionResponseDto,
      description:
        'The call goes on without the request: asked with `Prefer: respond-async` (status working), or held until a person decides (status pending_approval). ' +
        '`GET` the `Location` until its status is final, follow it at `…/events`, or cancel it at `…/cancel`.',
      headers: {
        Location: { description: 'The execution: `/api/v1/executions/{id}`.', schema: { type: 'string' } },
        'Preference-Applied': { description: '`respond-async` when the preference was taken.', schema: { type: 'string' } },
      },
    }),
    ApiOkResponse({ type: ExecutionResponseDto, description: 'The tool ran (status succeeded or tool_error) or asks for input (input_required).' }),
    ApiResponse({ status: 400, type: ExecutionFailureDto, description: own[400] }),
    ApiResponse({
      status: 401,
      type: ExecutionFailureDto,
      description:
        'The API key or token is missing or not valid; or (UPSTREAM_CREDENTIAL_REQUIRED, UPSTREAM_CONSENT_REQUIRED) the source needs your own credential first: `error.missing` names your `${user-secret:NAME}` values to store (PUT /api/v1/me/secrets/{name}), `error.connectUrl` where to connect. Nothing was sent upstream.',
    }),
    ApiResponse({ status: 403, type: ExecutionFailureDto, description: 'rejected by policy (disabled, deprecated, read-only)' }),
    ApiResponse({ status: 404, type: ExecutionFailureDto, description: own[404] }),
    ApiResponse({ status: 429, type: ExecutionFailureDto, description: "the source's concurrency limit (Retry-After)" }),
    ApiResponse({ status: 502, type: ExecutionFailureDto, description: 'upstream_error' }),
    ApiResponse({ status: 503, type: ExecutionFailureDto, description: 'circuit_open (Retry-After), or shutting down' }),
    ApiResponse({ status: 504, type: ExecutionFailureDto, description: 'timeout' }),
  );
}

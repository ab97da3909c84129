import { Body, Controller, Headers, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { McpTelemetry } from '../../../ops/tracing/mcp-telemetry.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../access/domain/principal.js';
import { CurrentPrincipal, Requires } from '../../access/interface/auth.guard.js';
import { ExecuteToolCommand } from '../application/execute-tool/execute-tool.command.js';
import type { ExecutionRecord } from '../domain/execution.js';
import type { ExecutionView } from '../../audit/application/execution-view.js';
import { ExecutionResponseDto } from '../../audit/interface/execution.dto.js';
import { ExecutionFailureDto, InvokeToolDto } from './invoke.dto.js';
import { httpStatusOf } from './execution-http-status.js';

@ApiTags('tools')
@ApiBearerAuth()
@Controller('api/v1/tools')
export class InvokeController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(McpTelemetry) private readonly telemetry: McpTelemetry,
  ) {}

  @Post(':qualifiedName/invoke')
  @Requires('tools:invoke')
  @ApiBody({ type: InvokeToolDto })
  @ApiHeader({ name: 'X-Correlation-Id', required: false, description: 'Recorded with the execution.' })
  @ApiOkResponse({ type: ExecutionResponseDto, description: 'The tool ran (status succeeded or tool_error) or asks for input (input_required).' })
  @ApiResponse({ status: 400, type: ExecutionFailureDto, description: 'invalid_arguments' })
  @ApiResponse({ status: 403, type: ExecutionFailureDto, description: 'rejected by policy (disabled, deprecated, read-only)' })
  @ApiResponse({ status: 404, type: ExecutionFailureDto, description: 'unknown tool' })
  @ApiResponse({ status: 429, type: ExecutionFailureDto, description: "the source's concurrency limit (Retry-After)" })
  @ApiResponse({ status: 502, type: ExecutionFailureDto, description: 'upstream_error' })
  @ApiResponse({ status: 503, type: ExecutionFailureDto, description: 'circuit_open (Retry-After), or shutting down' })
  @ApiResponse({ status: 504, type: ExecutionFailureDto, description: 'timeout' })
  async invoke(
    @Param('qualifiedName') qualifiedName: string,
    @Body() body: unknown,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('x-correlation-id') correlationId: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Req() request: FastifyRequest,
  ): Promise<ExecutionView | { error: unknown; execution: ExecutionView }> {
    // The HTTP SERVER span the upstream call's CLIENT span goes under (traces on).
    const operation = this.telemetry.httpServer('POST', '/api/v1/tools/{qualifiedName}/invoke', request.url.split('?')[0]!, request.headers, {
      address: request.raw.socket.remoteAddress,
      port: request.raw.socket.remotePort,
    });
    let status: number | undefined;
    try {
      const answer = await operation.run(() => this.serve(qualifiedName, body, userAgent, correlationId, principal, reply));
      status = reply.statusCode;
      return answer;
    } finally {
      operation.end(status);
    }
  }

  private async serve(
    qualifiedName: string,
    body: unknown,
    userAgent: string | undefined,
    correlationId: string | undefined,
    principal: Principal,
    reply: FastifyReply,
  ): Promise<ExecutionView | { error: unknown; execution: ExecutionView }> {
    const { value, problems } = await validateDto(InvokeToolDto, body);
    // The caller leaving (connection closed before the answer) cancels the call upstream.
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once('close', onClose);
    try {
      const record: ExecutionRecord = await this.commands.execute(
        new ExecuteToolCommand(
          { qualifiedName, arguments: value.arguments, timeoutMs: value.timeoutMs, inputResponses: value.inputResponses, requestState: value.requestState, shapeProblems: problems, scope: principal.scope, rateLimitPerMinute: principal.rateLimitPerMinute },
          {
            principalId: principal.id,
            principalName: principal.name,
            clientName: userAgent?.slice(0, 200),
            correlationId: correlationId?.slice(0, 200),
          },
          'rest',
          gone.signal,
        ),
      );
      const view = toView(record);
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
      if (status >= 400) {
        const { retryable, retryAfterMs, ...rest } = record.error!;
        return { error: { ...rest, retryable, retryAfterMs, details: record.error!.details ?? [] }, execution: view };
      }
      return view;
    } finally {
      reply.raw.off('close', onClose);
    }
  }
}

/** The execution as GET /api/v1/executions/{id} shows it. */
export function toView(record: ExecutionRecord): ExecutionView {
  return { ...record, startedAt: record.startedAt.toISOString(), traceId: record.traceId ?? null };
}

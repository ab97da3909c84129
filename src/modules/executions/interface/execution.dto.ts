import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorDetailDto } from '../../../shared/http/error-response.js';
import { EXECUTION_STATUSES } from '../domain/execution.js';
import { WAITING_STATUSES } from '../domain/execution-task.js';
import { ChainHeadDto, ChainProblemDto } from '../../audit/interface/chain.dto.js';
import { PageDto } from '../../../shared/http/page.dto.js';

export class ExecutionCallerViewDto {
  @ApiProperty({ description: 'Id of the authenticated principal (API key owner).' }) principalId!: string;
  @ApiProperty() principalName!: string;
  @ApiPropertyOptional({ description: 'What the client called itself (MCP clientInfo or User-Agent).' }) clientName?: string;
  @ApiPropertyOptional() clientVersion?: string;
  @ApiPropertyOptional() correlationId?: string;
  @ApiPropertyOptional({ example: '2026-07-28', description: 'MCP protocol version of the caller, for MCP calls.' }) protocolVersion?: string;
}

export class ExecutionResultViewDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'MCP content blocks as the tool returned them (capped).' })
  content!: unknown[];
  @ApiPropertyOptional({ description: 'Structured output of the tool, when it gave one.' }) structuredContent?: unknown;
  @ApiProperty({ description: 'True when the result was cut to the size cap.' }) truncated!: boolean;
  @ApiProperty({ description: 'Serialized size of the result before any truncation.' }) originalBytes!: number;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'status input_required: what the upstream asks the caller for.' })
  inputRequests?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'status input_required: state to echo back with the answers.' }) requestState?: string;
}

export class UpstreamRpcErrorDto {
  @ApiProperty({ example: -32602, description: 'JSON-RPC error code.' }) code!: number;
  @ApiPropertyOptional({ description: 'JSON-RPC error data, as the upstream sent it.' }) data?: unknown;
}

export class ExecutionErrorViewDto {
  @ApiProperty({ example: 'UPSTREAM_TIMEOUT', description: 'Stable, machine-readable code.' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'Whether the same call may succeed if tried again later.' }) retryable!: boolean;
  @ApiPropertyOptional({ description: 'When trying again makes sense (circuit open, concurrency limit); also sent as Retry-After.' }) retryAfterMs?: number;
  @ApiPropertyOptional({ type: [ErrorDetailDto] }) details?: ErrorDetailDto[];
  @ApiPropertyOptional({ type: UpstreamRpcErrorDto, description: 'The JSON-RPC error the upstream answered the call with (UPSTREAM_PROTOCOL_ERROR).' }) upstream?: UpstreamRpcErrorDto;
  @ApiPropertyOptional({ type: [String], description: 'UPSTREAM_CREDENTIAL_REQUIRED (invoke answers only): the `${user-secret:NAME}` names you have not stored.' }) missing?: string[];
  @ApiPropertyOptional({ description: 'UPSTREAM_CONSENT_REQUIRED (invoke answers only): where to connect your account to the source.' }) connectUrl?: string;
}

export class InterceptorChangesDto {
  @ApiPropertyOptional({ type: [String], description: 'JSON paths of the arguments or of the result that were set, replaced or removed (`arguments.path`, `content[0].text`).' })
  paths?: string[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' }, description: 'Counts by what was found (redact: masks by kind, e.g. `{"email": 2}`).' })
  counts?: Record<string, number>;
  @ApiPropertyOptional({ description: 'cap: the result was truncated.' }) truncated?: boolean;
}

class DeciderDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class ApprovalRunDto {
  @ApiProperty({ format: 'uuid', description: 'The approval (`/api/v1/approvals/{id}`).' }) id!: string;
  @ApiProperty({ enum: ['approved', 'denied', 'expired'], description: 'expired: nobody decided in time.' }) decision!: string;
  @ApiPropertyOptional({ type: DeciderDto, description: 'Who decided (absent when it expired).' }) decidedBy?: DeciderDto;
  @ApiPropertyOptional() comment?: string;
  @ApiProperty({ format: 'date-time' }) requestedAt!: string;
  @ApiProperty({ format: 'date-time' }) decidedAt!: string;
}

export class InterceptorRunDto {
  @ApiProperty({ description: 'The interceptor (`/api/v1/interceptors/{name}`).' }) name!: string;
  @ApiProperty({ example: 'redact' }) kind!: string;
  @ApiProperty({ enum: ['pre', 'post'], description: 'pre: on the arguments, before the call was sent; post: on the result.' }) phase!: string;
  @ApiProperty({
    enum: ['allow', 'modify', 'deny', 'hold', 'error'],
    description: 'hold: an approval interceptor held the call for a person to decide; error: the interceptor failed (threw, timed out, had no engine, or answered arguments the input schema refuses) and its `onError` decided.',
  })
  decision!: string;
  @ApiPropertyOptional({ enum: ['deny', 'allow'], description: 'decision error: whether the failure refused the call (deny) or let it go on (allow).' }) onError?: string;
  @ApiPropertyOptional({ example: 'timed out after 2000 ms', description: 'decision error: why it failed.' }) failure?: string;
  @ApiPropertyOptional({ description: 'decision deny: what the interceptor told the caller.' }) message?: string;
  @ApiPropertyOptional({ description: 'A note the interceptor made while letting the call go on.' }) warning?: string;
  @ApiPropertyOptional({ type: InterceptorChangesDto, description: 'decision modify: what changed (paths and counts, never the values).' }) changes?: InterceptorChangesDto;
  @ApiProperty({ description: 'How long it took, in milliseconds (to 0.01 ms).' }) durationMs!: number;
  @ApiPropertyOptional({ type: ApprovalRunDto, description: "An approval interceptor's run on a call resumed after its decision: the decision." }) approval?: ApprovalRunDto;
}

export class ExecutionResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'Null when the name resolved to no tool.' }) toolId!: string | null;
  @ApiProperty({ example: 'github__create_issue' }) qualifiedName!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) sourceId!: string | null;
  @ApiProperty({ nullable: true, type: String }) sourceName!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The tool group the call came through (`/mcp/groups/{name}`, `POST /api/v1/groups/{name}/tools/{tool}/invoke`); null otherwise.' })
  group!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Hash of the tool definition the call was validated against.' }) definitionHash!: string | null;
  @ApiProperty({ type: ExecutionCallerViewDto }) caller!: ExecutionCallerViewDto;
  @ApiProperty({ enum: ['rest', 'mcp'] }) channel!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The arguments as received (through a group or changed by an interceptor: as sent upstream, the values added), secret values redacted; null without executions:payloads.',
  })
  arguments!: unknown;
  @ApiProperty({
    enum: [...EXECUTION_STATUSES, ...WAITING_STATUSES],
    description: 'working, pending_approval, awaiting_input: the call has no final record yet (it runs detached, waits for a decision, or waits for its caller\'s input); every other status is final.',
  })
  status!: string;
  @ApiProperty({ description: "The tool's own isError flag (status tool_error)." }) isError!: boolean;
  @ApiProperty({ type: ExecutionResultViewDto, nullable: true, description: 'Null when the tool produced no result.' }) result!: ExecutionResultViewDto | null;
  @ApiProperty({ type: ExecutionErrorViewDto, nullable: true, description: 'Null for succeeded and tool_error.' }) error!: ExecutionErrorViewDto | null;
  @ApiProperty({ description: 'Upstream attempts made (retries included); 0 when the call never reached the upstream.' }) attempts!: number;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty() durationMs!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The OpenTelemetry trace the call ran in (32 hex characters); null when traces were off.', example: '4bf92f3577b34da6a3ce929d0e0e4736' })
  traceId!: string | null;
  @ApiProperty({
    type: [InterceptorRunDto],
    description:
      'The interceptors that ran on the call, in order (pre, then post); empty when none applied. A call an interceptor refused is `rejected` (INTERCEPTOR_DENIED, INTERCEPTOR_FAILED) or `invalid_arguments` (ARGUMENT_LOCKED) and its run is the last.',
  })
  interceptors!: InterceptorRunDto[];
}

export class ExecutionPageDto extends PageDto(ExecutionResponseDto, 'Newest first.') {}

export class ExecutionStatusCountsDto {
  @ApiProperty() succeeded!: number;
  @ApiProperty() tool_error!: number;
  @ApiProperty() invalid_arguments!: number;
  @ApiProperty() rejected!: number;
  @ApiProperty() circuit_open!: number;
  @ApiProperty() timeout!: number;
  @ApiProperty() upstream_error!: number;
  @ApiProperty() cancelled!: number;
  @ApiProperty() input_required!: number;
  @ApiProperty({ description: 'Toolplane stopped while the call was under way.' }) interrupted!: number;
}

export class ExecutionStatsGroupDto {
  @ApiPropertyOptional({ description: 'groupBy=tool: the qualified tool name.' }) qualifiedName?: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'groupBy=source: null when calls resolved to no source.' })
  sourceId?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'groupBy=source.' }) sourceName?: string | null;
  @ApiPropertyOptional({ description: 'groupBy=caller: the principal (an API key id, admin, or an OIDC subject).' }) principalId?: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'groupBy=caller: its name on its latest call.' }) principalName?: string | null;
  @ApiProperty({ description: 'Executions in the window.' }) count!: number;
  @ApiProperty({ description: 'Executions whose status is not succeeded.' }) errorCount!: number;
  @ApiProperty({
    minimum: 0,
    maximum: 1,
    description:
      'errorCount / count: every status other than succeeded counts as an error — tool_error (the tool ran and reported isError), ' +
      'invalid_arguments, rejected, circuit_open, timeout, upstream_error, cancelled, input_required and interrupted alike. ' +
      'countsByStatus gives the breakdown for any other definition.',
  })
  errorRate!: number;
  @ApiProperty({ type: ExecutionStatusCountsDto }) countsByStatus!: ExecutionStatusCountsDto;
  @ApiProperty({ description: 'Median duration (percentile_cont, interpolated).' }) p50DurationMs!: number;
  @ApiProperty({ description: '95th percentile duration (percentile_cont, interpolated).' }) p95DurationMs!: number;
}

export class ExecutionStatsDto {
  @ApiProperty({ enum: ['tool', 'source', 'caller'] }) groupBy!: string;
  @ApiProperty({ format: 'date-time' }) since!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) until!: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description:
      'The history is complete from this time on: retention (TOOLPLANE_EXECUTION_RETENTION) purged executions that started before it. ' +
      'A window that begins earlier counts only the executions retained. Null when nothing was purged.',
  })
  retainedFrom!: string | null;
  @ApiProperty({ type: [ExecutionStatsGroupDto], description: 'Busiest first.' }) groups!: ExecutionStatsGroupDto[];
}

class UnlinkedExecutionsDto {
  @ApiProperty({ description: 'Records neither linked nor pending: written straight into the table, past the recorder.' }) count!: number;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) firstId!: string | null;
}

class ChainRetentionDto {
  @ApiProperty({ description: 'The last link purged by retention: verification starts after it.' }) purgedThrough!: number;
  @ApiProperty({ description: "That link's hash, which the first retained link names as its previous hash." }) hash!: string;
  @ApiProperty({ description: 'Executions purged so far.' }) purgedCount!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Every purged execution started before this.' }) purgedBefore!: string | null;
}

export class ExecutionChainReportDto {
  @ApiProperty({ description: 'Every link follows the one before and recomputes from its record, the newest link is signed, and no record is outside the chain.' })
  intact!: boolean;
  @ApiProperty({ description: 'Links verified (up to the first problem).' }) events!: number;
  @ApiProperty({ type: ChainHeadDto, nullable: true, description: 'The last verified link: keep it elsewhere to notice a history cut short later.' }) head!: ChainHeadDto | null;
  @ApiProperty({ type: ChainProblemDto, required: false }) firstProblem?: ChainProblemDto;
  @ApiProperty({ description: 'Records written but not linked yet (linked within TOOLPLANE_EXECUTION_SEAL_INTERVAL_MS).' }) pending!: number;
  @ApiProperty({ type: UnlinkedExecutionsDto }) unlinked!: UnlinkedExecutionsDto;
  @ApiProperty({
    type: ChainRetentionDto,
    nullable: true,
    description: 'Where the retained chain starts, vouched by a signed anchor, once retention purged old executions and their links; null when nothing was purged.',
  })
  retention!: ChainRetentionDto | null;
  @ApiProperty({ description: "The signing key's id." }) keyId!: string;
  @ApiProperty({ description: 'The Ed25519 public key (PEM), to verify the chain elsewhere.' }) publicKey!: string;
}

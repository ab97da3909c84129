import { Get, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { withBodyEtag } from '../../../shared/http/body-etag.js';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ProblemDetail, ValidationFailed } from '../../../shared/domain-error.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { EXECUTION_STATUSES } from '../domain/execution.js';
import { WAITING_STATUSES } from '../domain/execution-task.js';
import { ExecutionStatsQuery, ExecutionStatsView, type ExecutionStatsGroupBy } from '../application/execution-stats/execution-stats.query.js';
import type { ExecutionPage, ShownExecution } from '../application/execution-view.js';
import { GetExecutionQuery } from '../application/get-execution/get-execution.query.js';
import { ExecutionFilter, ListExecutionsQuery } from '../application/list-executions/list-executions.query.js';
import { VerifyExecutionChainQuery, type ExecutionChainReport } from '../application/verify-execution-chain/verify-execution-chain.query.js';
import { shownTo, withPayloadsFor } from './execution-visibility.js';
import { ExecutionChainReportDto, ExecutionPageDto, ExecutionResponseDto, ExecutionStatsDto } from './execution.dto.js';
import { may, type Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';

/** The statuses the listing filters by: the final ones, and those of calls that wait. */
const LISTED_STATUSES = [...EXECUTION_STATUSES, ...WAITING_STATUSES];

/** PostgreSQL text cannot hold NUL; no name or id contains control characters. */
const PRINTABLE = /^\P{Cc}*$/u;

@ApiController('api/v1/executions', 'executions')
export class ExecutionsController extends BusController {
  @Get()
  @ApiOperation({
    summary: 'List executions',
    description: 'Newest first: the final records, and the calls that have none yet (`working`, `pending_approval`, `awaiting_input`) among them by when they started; a call is listed once, by its final record once it has one.',
  })
  @Requires('executions:read')
  @ApiQuery({ name: 'tool', required: false, description: 'Qualified tool name.' })
  @ApiQuery({ name: 'source', required: false, description: 'Source id or name.' })
  @ApiQuery({ name: 'group', required: false, description: 'The tool group the calls came through.' })
  @ApiQuery({ name: 'status', required: false, description: `One status or several separated by commas: ${LISTED_STATUSES.join(', ')} (working, pending_approval and awaiting_input: calls that have no final record yet).` })
  @ApiQuery({ name: 'caller', required: false, description: 'Principal id of the caller.' })
  @ApiQuery({ name: 'since', required: false, type: String, format: 'date-time', description: 'Started at or after.' })
  @ApiQuery({ name: 'until', required: false, type: String, format: 'date-time', description: 'Started before.' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-500, default 50' })
  @ApiOkResponse({ type: ExecutionPageDto })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match tag is current.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(
    @Query() query: Record<string, unknown>,
    @CurrentPrincipal() principal: Principal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExecutionPage | undefined> {
    const params = new QueryParams(query);
    const problems: ProblemDetail[] = [];
    const filter: ExecutionFilter = {
      tool: params.string('tool', { max: 100, pattern: PRINTABLE }),
      source: params.string('source', { max: 100, pattern: PRINTABLE }),
      group: params.string('group', { max: 100, pattern: PRINTABLE }),
      statuses: parseStatuses(params.string('status', { max: 200 }), problems),
      caller: params.string('caller', { max: 200, pattern: PRINTABLE }),
      since: params.date('since'),
      until: params.date('until'),
    };
    checkWindow(filter.since, filter.until, problems);
    const { cursor, limit } = params.page(50, 500);
    done(params, problems);
    // Without executions:read-all (agents) a principal reads its own calls only.
    if (!may(principal, 'executions:read-all')) filter.caller = principal.id;
    return this.queries
      .execute(new ListExecutionsQuery(filter, cursor, limit))
      .then((page: ExecutionPage) => withBodyEtag(reply, ifNoneMatch, { ...page, items: page.items.map((item) => withPayloadsFor(principal, item)) }));
  }

  // Declared before ':id'; the router also prefers the static segment.
  @Get('verify')
  @ApiOperation({ summary: "Verify the executions' signed hash chain" })
  @Requires('audit:read')
  @ApiOkResponse({ type: ExecutionChainReportDto })
  verify(): Promise<ExecutionChainReport> {
    return this.queries.execute(new VerifyExecutionChainQuery());
  }

  @Get('stats')
  @ApiOperation({ summary: 'Calls, error rate and latency over time' })
  @Requires('stats:read')
  @ApiQuery({ name: 'groupBy', required: false, enum: ['tool', 'source', 'caller'], description: 'Default tool; caller: per principal.' })
  @ApiQuery({ name: 'caller', required: false, description: 'Only the calls of this principal.' })
  @ApiQuery({ name: 'since', required: false, type: String, format: 'date-time', description: 'Default: 24 hours ago.' })
  @ApiQuery({ name: 'until', required: false, type: String, format: 'date-time', description: 'Default: now.' })
  @ApiOkResponse({ type: ExecutionStatsDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  stats(@Query() query: Record<string, unknown>): Promise<ExecutionStatsView> {
    const params = new QueryParams(query);
    const problems: ProblemDetail[] = [];
    const groupBy = (params.string('groupBy', { oneOf: ['tool', 'source', 'caller'] }) ?? 'tool') as ExecutionStatsGroupBy;
    const caller = params.string('caller', { max: 200, pattern: PRINTABLE });
    const since = params.date('since');
    const until = params.date('until');
    checkWindow(since, until, problems);
    done(params, problems);
    return this.queries.execute(new ExecutionStatsQuery(groupBy, since, until, caller));
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get one execution',
    description: 'A call that outlived its request (`Prefer: respond-async`, or waiting for approval) shows `working`, `pending_approval` or `awaiting_input` until its final record.',
  })
  @Requires('executions:read')
  @ApiOkResponse({ type: ExecutionResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'EXECUTION_NOT_FOUND, also for an id that is not a uuid, and for the call of another principal without executions:read-all.' })
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ShownExecution> {
    return shownTo(principal, await this.queries.execute(new GetExecutionQuery(id)));
  }
}

function parseStatuses(value: string | undefined, problems: ProblemDetail[]): ExecutionFilter['statuses'] {
  if (value === undefined) return undefined;
  const statuses = value.split(',').map((s) => s.trim());
  const unknown = statuses.filter((s) => !(LISTED_STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    problems.push({ path: 'status', message: `must be one or more of ${LISTED_STATUSES.join(', ')} separated by commas` });
    return undefined;
  }
  return [...new Set(statuses)] as ExecutionFilter['statuses'];
}

function checkWindow(since: Date | undefined, until: Date | undefined, problems: ProblemDetail[]): void {
  if (since && until && since.getTime() >= until.getTime()) problems.push({ path: 'until', message: 'must be later than since' });
}

/** QueryParams' own problems and ours, reported together. */
function done(params: QueryParams, problems: ProblemDetail[]): void {
  try {
    params.done();
  } catch (error) {
    if (error instanceof ValidationFailed && problems.length > 0) throw new ValidationFailed([...error.details, ...problems], error.message);
    throw error;
  }
  if (problems.length > 0) throw new ValidationFailed(problems, 'The query parameters are invalid.');
}

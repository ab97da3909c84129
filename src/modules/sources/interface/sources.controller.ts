import { GetSourceUserSecretsQuery, type SourceUserSecrets } from '../application/get-source-user-secrets/get-source-user-secrets.query.js';
import { SourceUserSecretsDto } from './upstream-auth.dto.js';
import { SOURCE_HEALTHS } from '../domain/source-settings.js';
import { Body, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { withBodyEtag } from '../../../shared/http/body-etag.js';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import type { InventoryChanges } from '../../inventory/domain/inventory-diff.js';
import { GetSourceQuery } from '../application/get-source/get-source.query.js';
import { ListSourcesQuery } from '../application/list-sources/list-sources.query.js';
import { RefreshInventoryCommand } from '../application/refresh-inventory/refresh-inventory.command.js';
import { RegisterSourceCommand } from '../application/register-source/register-source.command.js';
import { RemoveSourceCommand } from '../application/remove-source/remove-source.command.js';
import type { SourcePage, SourceView } from '../application/source-view.js';
import { UpdateSourceCommand } from '../application/update-source/update-source.command.js';
import { ValidateSourceQuery, ValidationReport } from '../application/validate-source/validate-source.query.js';
import { TRANSPORTS } from '../domain/source-settings.js';
import { RegisterSourceDto, toSourceSpec, UpdateSourceDto } from './source.dto.js';
import { InventoryChangesDto, SourcePageDto, SourceResponseDto, ValidationReportDto } from './source-response.dto.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { callerTokenOf } from '../../../shared/principal/caller-token.js';

const errors = (...statuses: number[]) =>
  statuses.map((status) => ApiResponse({ status, type: ErrorResponseDto, description: 'Error' }));

function applyAll(...decorators: MethodDecorator[]): MethodDecorator {
  return (target, key, descriptor) => {
    for (const d of decorators) d(target, key, descriptor);
  };
}

@ApiController('api/v1/sources', 'sources')
export class SourcesController extends BusController {
  @Post()
  @ApiOperation({ summary: 'Register a source' })
  @Requires('sources:write')
  @ApiBody({ type: RegisterSourceDto })
  @ApiQuery({ name: 'wait', required: false, type: Boolean, description: 'false: answer before the first discovery finishes.' })
  @ApiCreatedResponse({ type: SourceResponseDto })
  @applyAll(...errors(400, 401, 409))
  async register(@Body() body: unknown, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<SourceView> {
    const params = new QueryParams(query);
    const wait = params.boolean('wait') ?? true;
    params.done();
    const { value, problems } = await validateDto(RegisterSourceDto, body);
    const { id } = await this.commands.execute(new RegisterSourceCommand(toSourceSpec(value), problems, principal.id, wait, { id: principal.id, name: principal.name, kind: principal.kind }, callerTokenOf(principal)));
    return this.queries.execute(new GetSourceQuery(id));
  }

  @Post('validate')
  @ApiOperation({ summary: 'Check a registration without storing it (dry run)' })
  @Requires('sources:write')
  @HttpCode(200)
  @ApiBody({ type: RegisterSourceDto })
  @ApiQuery({
    name: 'connect',
    required: false,
    type: Boolean,
    description: 'false: every check but the connection (settings, manifest, command on PATH, secrets): nothing is started, nothing audited, and `valid` means no problems. For checking a form as it is typed.',
  })
  @ApiOkResponse({ type: ValidationReportDto, description: 'A dry run: every check, a real connection and a tool preview. Nothing is stored.' })
  @applyAll(...errors(400, 401))
  async validate(@Body() body: unknown, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<ValidationReport> {
    const params = new QueryParams(query);
    const connect = params.boolean('connect') ?? true;
    params.done();
    const { value, problems } = await validateDto(RegisterSourceDto, body);
    return this.queries.execute(new ValidateSourceQuery(toSourceSpec(value), problems, principal.id, connect));
  }

  @Get()
  @ApiOperation({ summary: 'List sources' })
  @Requires('sources:read')
  @ApiQuery({ name: 'enabled', required: false, type: Boolean })
  @ApiQuery({ name: 'health', required: false, enum: SOURCE_HEALTHS })
  @ApiQuery({ name: 'transport', required: false, enum: TRANSPORTS })
  @ApiQuery({ name: 'q', required: false, description: 'Text in the name or description.' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-200, default 50' })
  @ApiOkResponse({ type: SourcePageDto })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match tag is current.' })
  @applyAll(...errors(400, 401))
  async list(
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SourcePage | undefined> {
    const params = new QueryParams(query);
    const filter = {
      enabled: params.boolean('enabled'),
      health: params.string('health', { oneOf: SOURCE_HEALTHS }) as SourceView['health'] | undefined,
      transport: params.string('transport', { oneOf: TRANSPORTS }),
      q: params.string('q', { max: 200 }),
    };
    const { cursor, limit } = params.page(50, 200);
    params.done();
    return withBodyEtag(reply, ifNoneMatch, await this.queries.execute(new ListSourcesQuery(filter, cursor, limit)));
  }

  @Get(':idOrName')
  @ApiOperation({ summary: 'Get one source' })
  @Requires('sources:read')
  @ApiOkResponse({ type: SourceResponseDto })
  @applyAll(...errors(401, 404))
  get(@Param('idOrName') idOrName: string): Promise<SourceView> {
    return this.queries.execute(new GetSourceQuery(idOrName));
  }

  @Get(':idOrName/user-secrets')
  @ApiOperation({
    summary: "Which principals hold the source's user secrets",
    description: 'For a source whose env or headers refer to `${user-secret:NAME}`: the names it refers to, and each principal holding at least one, with those it holds and those it lacks. Never a value.',
  })
  @Requires('secrets:read')
  @ApiOkResponse({ type: SourceUserSecretsDto })
  @applyAll(...errors(401, 404))
  userSecrets(@Param('idOrName') idOrName: string): Promise<SourceUserSecrets> {
    return this.queries.execute(new GetSourceUserSecretsQuery(idOrName));
  }

  @Patch(':idOrName')
  @ApiOperation({ summary: "Change a source's settings" })
  @Requires('sources:write')
  @ApiBody({ type: UpdateSourceDto })
  @ApiQuery({ name: 'wait', required: false, type: Boolean, description: 'false: answer before a triggered rediscovery finishes.' })
  @ApiOkResponse({ type: SourceResponseDto })
  @applyAll(...errors(400, 401, 404, 409))
  async update(
    @Param('idOrName') idOrName: string,
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SourceView> {
    const params = new QueryParams(query);
    const wait = params.boolean('wait') ?? true;
    params.done();
    const { value, problems } = await validateDto(UpdateSourceDto, body);
    const { id } = await this.commands.execute(new UpdateSourceCommand(idOrName, { ...value }, problems, principal.id, wait, { id: principal.id, name: principal.name, kind: principal.kind }));
    return this.queries.execute(new GetSourceQuery(id));
  }

  @Delete(':idOrName')
  @ApiOperation({ summary: 'Remove a source' })
  @Requires('sources:write')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed: processes stopped, tools out of the catalog, history kept.' })
  @applyAll(...errors(401, 404))
  async remove(@Param('idOrName') idOrName: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new RemoveSourceCommand(idOrName, principal.id));
  }

  @Post(':idOrName/refresh')
  @ApiOperation({ summary: "Rediscover a source's tools now" })
  @Requires('sources:write')
  @HttpCode(200)
  @ApiOkResponse({ type: InventoryChangesDto, description: 'The tools found. The plugin directory\'s manifest, read again first, may have changed the source (audited as source.updated).' })
  @applyAll(...errors(400, 401, 404, 409, 502))
  refresh(@Param('idOrName') idOrName: string, @CurrentPrincipal() principal: Principal): Promise<InventoryChanges> {
    return this.commands.execute(new RefreshInventoryCommand(idOrName, principal.id, callerTokenOf(principal)));
  }
}

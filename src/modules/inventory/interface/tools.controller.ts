import { Body, Controller, Get, Inject, Param, Patch, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { validateDtoOrThrow } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../access/domain/principal.js';
import { CurrentPrincipal } from '../../access/interface/auth.guard.js';
import { GetToolQuery } from '../application/get-tool/get-tool.query.js';
import { ListToolsQuery } from '../application/list-tools/list-tools.query.js';
import { SetToolEnabledCommand } from '../application/set-tool-enabled/set-tool-enabled.command.js';
import type { ToolFilter, ToolPage, ToolView } from '../application/tool-view.js';
import { ToolPageDto, ToolResponseDto, UpdateToolDto } from './tool.dto.js';

@ApiTags('tools')
@ApiBearerAuth()
@Controller('api/v1/tools')
export class ToolsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(QueryBus) private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiQuery({ name: 'source', required: false, description: 'Source id or name.' })
  @ApiQuery({ name: 'status', required: false, enum: ['active', 'deprecated', 'all'], description: 'Default active.' })
  @ApiQuery({ name: 'enabled', required: false, type: Boolean })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-500, default 100' })
  @ApiOkResponse({ type: ToolPageDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(@Query() query: Record<string, unknown>): Promise<ToolPage> {
    const params = new QueryParams(query);
    const filter: ToolFilter = {
      source: params.string('source', { max: 100 }),
      status: params.string('status', { oneOf: ['active', 'deprecated', 'all'] }) as ToolFilter['status'],
      enabled: params.boolean('enabled'),
    };
    const cursor = params.string('cursor', { max: 512 });
    const limit = params.int('limit', 100, 1, 500);
    params.done();
    return this.queries.execute(new ListToolsQuery(filter, cursor, limit));
  }

  @Get(':qualifiedName')
  @ApiOkResponse({ type: ToolResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  get(@Param('qualifiedName') qualifiedName: string): Promise<ToolView> {
    return this.queries.execute(new GetToolQuery(qualifiedName));
  }

  @Patch(':qualifiedName')
  @ApiOkResponse({ type: ToolResponseDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  async update(
    @Param('qualifiedName') qualifiedName: string,
    @Body() body: UpdateToolDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ToolView> {
    const dto = await validateDtoOrThrow(UpdateToolDto, body);
    await this.commands.execute(new SetToolEnabledCommand(qualifiedName, dto.enabled, principal.id));
    return this.queries.execute(new GetToolQuery(qualifiedName));
  }
}

import { Body, Controller, Get, Inject, Param, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { validateDtoOrThrow } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { decideTool } from '../../access/domain/tool-scope.js';
import { GetToolQuery } from '../application/get-tool/get-tool.query.js';
import { toolNotFound } from '../application/tool-errors.js';
import { SetToolEnabledCommand } from '../application/set-tool-enabled/set-tool-enabled.command.js';
import type { CatalogTool } from '../domain/tool-definition.js';
import { ToolResponseDto, UpdateToolDto } from './tool.dto.js';

/** One tool: show it, enable or disable it. The listing (`GET /api/v1/tools`) is the catalog's. */
@ApiTags('tools')
@ApiBearerAuth()
@Controller('api/v1/tools')
export class ToolsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(QueryBus) private readonly queries: QueryBus,
  ) {}

  @Get(':qualifiedName')
  @ApiOperation({ summary: 'Get one tool' })
  @Requires('catalog:read')
  @ApiOkResponse({ type: ToolResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  async get(@Param('qualifiedName') qualifiedName: string, @CurrentPrincipal() principal: Principal): Promise<CatalogTool> {
    const tool: CatalogTool = await this.queries.execute(new GetToolQuery(qualifiedName));
    // A tool outside a restricted principal's scope is not there, as far as it can tell.
    if (!decideTool(principal.scope, { qualifiedName: tool.qualifiedName, sourceName: tool.source.name }).allowed) throw toolNotFound(qualifiedName);
    return tool;
  }

  @Patch(':qualifiedName')
  @ApiOperation({ summary: 'Enable or disable a tool' })
  @Requires('tools:write')
  @ApiOkResponse({ type: ToolResponseDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  async update(
    @Param('qualifiedName') qualifiedName: string,
    @Body() body: UpdateToolDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CatalogTool> {
    const dto = await validateDtoOrThrow(UpdateToolDto, body);
    await this.commands.execute(new SetToolEnabledCommand(qualifiedName, dto.enabled, principal.id));
    return this.queries.execute(new GetToolQuery(qualifiedName));
  }
}

import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { CreateGroupCommand } from '../application/create-group/create-group.command.js';
import { DeleteGroupCommand } from '../application/delete-group/delete-group.command.js';
import { GetGroupQuery } from '../application/get-group/get-group.query.js';
import type { GroupView } from '../application/group-view.js';
import { ListGroupsQuery, type GroupPage } from '../application/list-groups/list-groups.query.js';
import { UpdateGroupCommand } from '../application/update-group/update-group.command.js';
import { CreateGroupDto, GroupDto, GroupPageDto, UpdateGroupDto } from './group.dto.js';

@ApiController('api/v1/groups', 'groups')
export class GroupsController extends BusController {
  @Post()
  @ApiOperation({ summary: 'Create a tool group', description: 'Served at once at /mcp/groups/{name} and as GET /api/v1/tools?group={name}. See docs/groups.md.' })
  @Requires('groups:manage')
  @ApiCreatedResponse({ type: GroupDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the group, listed.' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'GROUP_NAME_TAKEN' })
  async create(@Body() body: CreateGroupDto, @CurrentPrincipal() principal: Principal): Promise<GroupView> {
    const { problems } = await validateDto(CreateGroupDto, body);
    return this.commands.execute(new CreateGroupCommand(isObject(body) ? body : {}, principal.id, problems));
  }

  @Get()
  @ApiOperation({ summary: 'List tool groups, by name' })
  @Requires('groups:manage')
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-200, default 50' })
  @ApiOkResponse({ type: GroupPageDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(@Query() query: Record<string, unknown>): Promise<GroupPage> {
    const { cursor, limit } = QueryParams.pageOnly(query, 50, 200);
    return this.queries.execute(new ListGroupsQuery(cursor, limit));
  }

  @Get(':name')
  @ApiOperation({ summary: 'Get one tool group' })
  @Requires('groups:manage')
  @ApiOkResponse({ type: GroupDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GROUP_NOT_FOUND' })
  get(@Param('name') name: string): Promise<GroupView> {
    return this.queries.execute(new GetGroupQuery(name));
  }

  @Patch(':name')
  @ApiOperation({ summary: 'Change a tool group', description: 'The fields given replace the group\'s; its MCP clients hear notifications/tools/list_changed.' })
  @Requires('groups:manage')
  @ApiOkResponse({ type: GroupDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the change, listed.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GROUP_NOT_FOUND' })
  async update(@Param('name') name: string, @Body() body: UpdateGroupDto, @CurrentPrincipal() principal: Principal): Promise<GroupView> {
    const { problems } = await validateDto(UpdateGroupDto, body);
    return this.commands.execute(new UpdateGroupCommand(name, isObject(body) ? body : {}, principal.id, problems));
  }

  @Delete(':name')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a tool group', description: 'Its endpoint and catalog view are gone; executions keep its name.' })
  @Requires('groups:manage')
  @ApiOkResponse({ type: GroupDto, description: 'The group as it was.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GROUP_NOT_FOUND' })
  remove(@Param('name') name: string, @CurrentPrincipal() principal: Principal): Promise<GroupView> {
    return this.commands.execute(new DeleteGroupCommand(name, principal.id));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

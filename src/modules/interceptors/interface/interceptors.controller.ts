import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { isRecord } from '../../../shared/is-record.js';
import type { ProblemDetail } from '../../../shared/domain-error.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { CreateInterceptorCommand } from '../application/create-interceptor/create-interceptor.command.js';
import { DeleteInterceptorCommand } from '../application/delete-interceptor/delete-interceptor.command.js';
import { GetInterceptorQuery } from '../application/get-interceptor/get-interceptor.query.js';
import type { InterceptorView } from '../application/interceptor-view.js';
import { ListInterceptorsQuery, type InterceptorPage } from '../application/list-interceptors/list-interceptors.query.js';
import { UpdateInterceptorCommand } from '../application/update-interceptor/update-interceptor.command.js';
import { CreateInterceptorDto, InterceptorDto, InterceptorPageDto, UpdateInterceptorDto } from './interceptor.dto.js';

@ApiController('api/v1/interceptors', 'interceptors')
export class InterceptorsController extends BusController {
  @Post()
  @ApiOperation({ summary: 'Create an interceptor', description: 'In force for the calls that start once it answers, in every process. See docs/interceptors.md.' })
  @Requires('interceptors:manage')
  @ApiCreatedResponse({ type: InterceptorDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the interceptor, listed.' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'INTERCEPTOR_EXISTS' })
  create(@Body() body: CreateInterceptorDto, @CurrentPrincipal() principal: Principal): Promise<InterceptorView> {
    return this.commands.execute(new CreateInterceptorCommand(isRecord(body) ? body : {}, principal.id, shapeOf(body)));
  }

  @Get()
  @ApiOperation({ summary: 'List interceptors, by name' })
  @Requires('interceptors:manage')
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-200, default 50' })
  @ApiOkResponse({ type: InterceptorPageDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(@Query() query: Record<string, unknown>): Promise<InterceptorPage> {
    const { cursor, limit } = QueryParams.pageOnly(query, 50, 200);
    return this.queries.execute(new ListInterceptorsQuery(cursor, limit));
  }

  @Get(':name')
  @ApiOperation({ summary: 'Get one interceptor' })
  @Requires('interceptors:manage')
  @ApiOkResponse({ type: InterceptorDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'INTERCEPTOR_NOT_FOUND' })
  get(@Param('name') name: string): Promise<InterceptorView> {
    return this.queries.execute(new GetInterceptorQuery(name));
  }

  @Patch(':name')
  @ApiOperation({
    summary: 'Change an interceptor',
    description: "The fields given replace the interceptor's; null puts one back to its default. A new kind drops the old kind's settings.",
  })
  @Requires('interceptors:manage')
  @ApiOkResponse({ type: InterceptorDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the change, listed.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'INTERCEPTOR_NOT_FOUND' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'STALE_VERSION: the version given is not the current one.' })
  update(@Param('name') name: string, @Body() body: UpdateInterceptorDto, @CurrentPrincipal() principal: Principal): Promise<InterceptorView> {
    return this.commands.execute(new UpdateInterceptorCommand(name, isRecord(body) ? body : {}, principal.id, shapeOf(body)));
  }

  @Delete(':name')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove an interceptor', description: 'No call runs it once this answers; executions keep what it did.' })
  @Requires('interceptors:manage')
  @ApiOkResponse({ type: InterceptorDto, description: 'The interceptor as it was.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'INTERCEPTOR_NOT_FOUND' })
  remove(@Param('name') name: string, @CurrentPrincipal() principal: Principal): Promise<InterceptorView> {
    return this.commands.execute(new DeleteInterceptorCommand(name, principal.id));
  }
}

/** Every field's value is the spec check's to judge (unknown ones included); only a body that is no object is refused here. */
function shapeOf(body: unknown): ProblemDetail[] {
  return isRecord(body) ? [] : [{ path: 'body', message: 'must be a JSON object' }];
}

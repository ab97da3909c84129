import { Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ValidationFailed } from '../../../shared/domain-error.js';
import { ApiController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import type { Principal } from '../../../shared/principal/principal.js';
import type { CatalogPage } from '../application/search-catalog/search-catalog.query.js';
import { CatalogListing } from './catalog-listing.js';

/** A group's tools, as `GET /api/v1/tools?group={name}` lists them: the group's page of the catalog. */
@ApiController('api/v1/groups', 'groups')
export class GroupToolsController extends CatalogListing {
  @Get(':name/tools')
  @Requires('catalog:read')
  @ApiOperation({
    summary: 'The tools a group serves, as a principal sees them',
    description:
      'The same listing as `GET /api/v1/tools?group={name}` (every query parameter of it: format, strict, q, filters, paging, ETags). ' +
      'With `as={keyId}` (admins), what that key would see through the group: a key bound to other groups sees none of its tools.',
  })
  @ApiQuery({ name: 'as', required: false, description: 'An API key id: the group as that key sees it (admins only).' })
  @ApiQuery({ name: 'format', required: false, enum: ['mcp', 'openai', 'openai-responses', 'anthropic'], description: 'Default: the admin view, each tool under its served name.' })
  @ApiResponse({ status: 200, description: 'A page of the group\'s tools, as `GET /api/v1/tools?group={name}` answers it.' })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match tag is current.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GROUP_NOT_FOUND' })
  list(
    @Param('name') name: string,
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CatalogPage | undefined> {
    if (query.group !== undefined) throw new ValidationFailed([{ path: 'group', message: 'is not a parameter here: the group is the one the path names' }]);
    return this.page({ ...query, group: name }, ifNoneMatch, reply, principal);
  }
}

import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { BusController, ApiController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { Requires } from '../../../shared/http/route-access.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import { CreateGroupDto } from '../../groups/interface/group.dto.js';
import { PreviewGroupQuery, type GroupPreview } from '../application/preview-group/preview-group.query.js';
import { GroupPreviewDto } from './catalog.dto.js';

/** `POST /api/v1/groups/preview`: what a group not saved would serve now (the console's live preview). */
@ApiController('api/v1/groups', 'groups')
export class GroupPreviewController extends BusController {
  @Post('preview')
  @HttpCode(200)
  @Requires('groups:manage')
  @ApiOperation({
    summary: 'Preview a tool group without saving it',
    description: 'The body is a group as `POST /api/v1/groups` takes it; the answer lists the tools it would serve over the current catalog, under their served names, with their locked and default arguments. Nothing is stored.',
  })
  @ApiOkResponse({ type: GroupPreviewDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the group, listed.' })
  async preview(@Body() body: CreateGroupDto): Promise<GroupPreview> {
    const { problems } = await validateDto(CreateGroupDto, body);
    const input = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as unknown as Record<string, unknown>) : {};
    return this.queries.execute(new PreviewGroupQuery(input, problems));
  }
}

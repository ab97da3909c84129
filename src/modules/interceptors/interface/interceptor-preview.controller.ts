import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { isRecord } from '../../../shared/is-record.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { PreviewInterceptorQuery, type InterceptorPreview } from '../application/preview-interceptor/preview-interceptor.query.js';
import { InterceptorPreviewDto, PreviewInterceptorDto } from './interceptor-preview.dto.js';

/** `POST /api/v1/interceptors/preview`: what an interceptor not saved would do to a sample call (the console's "Try on a sample call"). */
@ApiController('api/v1/interceptors', 'interceptors')
export class InterceptorPreviewController extends BusController {
  @Post('preview')
  @HttpCode(200)
  @Requires('interceptors:manage')
  @ApiOperation({
    summary: 'Try an interceptor on a sample call without saving it',
    description:
      "The interceptor is checked as `POST /api/v1/interceptors` checks it, then run once on the sample call (with its timeout and onError; for pre, the sample's arguments checked against the tool's inputSchema first). The tool is looked up in the inventory; an unknown one is a stand-in. No upstream is called and nothing is stored. The answer says whether the interceptor would apply, its decision, what it changed (paths and counts) and the arguments or result after it.",
  })
  @ApiOkResponse({ type: InterceptorPreviewDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the interceptor (under `interceptor.`) and of the sample call (under `call.`), listed.' })
  preview(@Body() body: PreviewInterceptorDto, @CurrentPrincipal() principal: Principal): Promise<InterceptorPreview> {
    const shape = isRecord(body) ? [] : [{ path: 'body', message: 'must be a JSON object' }];
    return this.queries.execute(new PreviewInterceptorQuery(isRecord(body) ? body : {}, principal, shape));
  }
}

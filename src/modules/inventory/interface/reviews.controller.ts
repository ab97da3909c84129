import { applyDecorators, Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { validateDtoOrThrow } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { DecideReviewCommand } from '../application/decide-review/decide-review.command.js';
import { GetReviewQuery } from '../application/get-review/get-review.query.js';
import { ListReviewsQuery } from '../application/list-reviews/list-reviews.query.js';
import type { ReviewPage, ReviewView } from '../application/review-views.js';
import { REVIEW_STATES, type ReviewState } from '../domain/pinning/definition-review.js';
import { DecideReviewDto, ReviewDto, ReviewPageDto } from './review.dto.js';

/** The reviews of tool definitions held by their source's pinning: list, show, approve, reject. */
@ApiController('api/v1/reviews', 'reviews')
export class ReviewsController extends BusController {
  @Get()
  @ApiOperation({ summary: 'List the reviews of held tool definitions, newest first' })
  @Requires('reviews:read')
  @ApiQuery({ name: 'state', required: false, enum: REVIEW_STATES })
  @ApiQuery({ name: 'source', required: false, description: 'A source id or name.' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1–200, default 50.' })
  @ApiOkResponse({ type: ReviewPageDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(@Query() query: Record<string, unknown>): Promise<ReviewPage> {
    const params = new QueryParams(query);
    const filter = {
      state: params.string('state', { oneOf: REVIEW_STATES }) as ReviewState | undefined,
      source: params.string('source', { max: 200 }),
    };
    const { cursor, limit } = params.page(50, 200);
    params.done();
    return this.queries.execute(new ListReviewsQuery(filter, cursor, limit));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get one review, with its diff against the last approved definition' })
  @Requires('reviews:read')
  @ApiOkResponse({ type: ReviewDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  get(@Param('id') id: string): Promise<ReviewView> {
    return this.queries.execute(new GetReviewQuery(id));
  }

  @Post(':id/approve')
  @ApiOperation({ summary: 'Approve a pending review: the definition becomes the approved one and is served' })
  @DecisionRoute()
  approve(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<ReviewView> {
    return this.decide(id, 'approve', body, principal);
  }

  @Post(':id/reject')
  @ApiOperation({ summary: 'Reject a pending review: the tool stays held until its upstream changes the definition again' })
  @DecisionRoute()
  reject(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<ReviewView> {
    return this.decide(id, 'reject', body, principal);
  }

  private async decide(id: string, decision: 'approve' | 'reject', body: unknown, principal: Principal): Promise<ReviewView> {
    const dto = await validateDtoOrThrow(DecideReviewDto, body ?? {});
    return this.commands.execute(new DecideReviewCommand(id, decision, dto.comment ?? null, principal.id));
  }
}

/** What approve and reject both declare: the permission, the optional comment, the answers. */
function DecisionRoute(): MethodDecorator {
  return applyDecorators(
    Requires('reviews:decide'),
    HttpCode(200),
    ApiBody({ type: DecideReviewDto, required: false }),
    ApiOkResponse({ type: ReviewDto }),
    ApiResponse({ status: 400, type: ErrorResponseDto }),
    ApiResponse({ status: 404, type: ErrorResponseDto }),
    ApiResponse({ status: 409, type: ErrorResponseDto, description: 'REVIEW_ALREADY_DECIDED: only a pending review can be decided.' }),
  );
}

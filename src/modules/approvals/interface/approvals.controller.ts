import { applyDecorators, Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { validateDtoOrThrow } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import type { ApprovalDetail, ApprovalPage, ApprovalView } from '../application/approval-views.js';
import { DecideApprovalCommand } from '../application/decide-approval/decide-approval.command.js';
import { GetApprovalQuery } from '../application/get-approval/get-approval.query.js';
import { ListApprovalsQuery } from '../application/list-approvals/list-approvals.query.js';
import { APPROVAL_STATUSES, type ApprovalStatus } from '../domain/approval.js';
import { ApprovalDetailDto, ApprovalDto, ApprovalPageDto, DecideApprovalDto } from './approval.dto.js';

/** Tool calls held for a person's approval: list, show, approve, deny. */
@ApiController('api/v1/approvals', 'approvals')
export class ApprovalsController extends BusController {
  @Get()
  @ApiOperation({ summary: 'List held calls, newest first: those you may decide (every one for an admin)' })
  @Requires('approvals:decide')
  @ApiQuery({ name: 'status', required: false, enum: APPROVAL_STATUSES })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1–200, default 50.' })
  @ApiOkResponse({ type: ApprovalPageDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<ApprovalPage> {
    const params = new QueryParams(query);
    const status = params.string('status', { oneOf: APPROVAL_STATUSES }) as ApprovalStatus | undefined;
    const { cursor, limit } = params.page(50, 200);
    params.done();
    const admin = principal.roles.includes('admin');
    return this.queries.execute(new ListApprovalsQuery({ ...(status ? { status } : {}), ...(admin ? {} : { decidableBy: deciding(principal) }) }, cursor, limit));
  }

  @Get(':id')
  @ApiOperation({ summary: "One held call: the tool, its arguments (redacted), the caller and the caller's 10 latest executions" })
  @Requires('approvals:decide')
  @ApiOkResponse({ type: ApprovalDetailDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'APPROVAL_NOT_FOUND: none, or not one you may decide.' })
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ApprovalDetail> {
    return this.queries.execute(new GetApprovalQuery(id, { ...deciding(principal), admin: principal.roles.includes('admin') }));
  }

  @Post(':id/approve')
  @ApiOperation({ summary: 'Approve a held call: it runs, with exactly the arguments shown' })
  @DecisionRoute()
  approve(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<ApprovalView> {
    return this.decide(id, 'approved', body, principal);
  }

  @Post(':id/deny')
  @ApiOperation({ summary: 'Deny a held call: it is refused (APPROVAL_DENIED) and nothing reaches the upstream' })
  @DecisionRoute()
  deny(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<ApprovalView> {
    return this.decide(id, 'denied', body, principal);
  }

  private async decide(id: string, decision: 'approved' | 'denied', body: unknown, principal: Principal): Promise<ApprovalView> {
    const dto = await validateDtoOrThrow(DecideApprovalDto, body ?? {});
    return this.commands.execute(new DecideApprovalCommand(id, decision, dto.comment ?? null, deciding(principal)));
  }
}

function deciding(principal: Principal): { id: string; name: string; roles: string[] } {
  return { id: principal.id, name: principal.name, roles: principal.roles };
}

/** What approve and deny both declare: the permission, the optional comment, the answers. */
function DecisionRoute(): MethodDecorator {
  return applyDecorators(
    Requires('approvals:decide'),
    HttpCode(200),
    ApiBody({ type: DecideApprovalDto, required: false }),
    ApiOkResponse({ type: ApprovalDto }),
    ApiResponse({ status: 400, type: ErrorResponseDto }),
    ApiResponse({ status: 403, type: ErrorResponseDto, description: 'SELF_APPROVAL_FORBIDDEN: the call is your own; APPROVAL_NOT_ALLOWED: you are not one of its approvers.' }),
    ApiResponse({ status: 404, type: ErrorResponseDto }),
    ApiResponse({ status: 409, type: ErrorResponseDto, description: 'APPROVAL_DECIDED: already decided, or expired.' }),
  );
}

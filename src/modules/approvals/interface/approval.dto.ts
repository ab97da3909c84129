import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageDto } from '../../../shared/http/page.dto.js';
import { ExecutionResponseDto } from '../../executions/interface/execution.dto.js';
import { APPROVAL_STATUSES } from '../domain/approval.js';

/** A decision's comment is kept up to this many characters. */
export const MAX_COMMENT_CHARS = 2000;

export class DecideApprovalDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_COMMENT_CHARS, description: 'Why: kept with the approval, on the execution record and in the audit trail.', example: 'Expected: ticket OPS-42.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_COMMENT_CHARS)
  comment?: string | null;
}

class ApprovalToolDto {
  @ApiProperty({ example: 'github__delete_repo' }) qualifiedName!: string;
  @ApiProperty({ description: "The tool's source." }) source!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: "The tool's annotations (readOnlyHint, destructiveHint…), as its upstream declared them." })
  annotations!: Record<string, unknown> | null;
}

class ApprovalCallerDto {
  @ApiProperty() principalId!: string;
  @ApiProperty() principalName!: string;
  @ApiPropertyOptional() clientName?: string;
  @ApiPropertyOptional() correlationId?: string;
}

class ApproversDto {
  @ApiPropertyOptional({ type: [String] }) roles?: string[];
  @ApiPropertyOptional({ type: [String] }) principals?: string[];
}

class DeciderDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class ApprovalDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The held call (`/api/v1/executions/{id}`): its record is written once the call ends after the decision.' }) executionId!: string;
  @ApiProperty({ enum: APPROVAL_STATUSES, description: 'pending: waiting; approved, denied: decided; expired: nobody decided in time (the call is refused).' }) status!: string;
  @ApiProperty({ description: 'The approval interceptor that held the call.' }) interceptor!: string;
  @ApiProperty({ type: String, nullable: true, description: "Why, for the approver: the interceptor's description." }) message!: string | null;
  @ApiProperty({ type: ApprovalToolDto }) tool!: ApprovalToolDto;
  @ApiProperty({ type: String, nullable: true, description: 'The tool group the call came through.' }) group!: string | null;
  @ApiProperty({ type: ApprovalCallerDto }) caller!: ApprovalCallerDto;
  @ApiProperty({ enum: ['rest', 'mcp'] }) channel!: string;
  @ApiProperty({ description: 'The arguments of the call, secrets redacted.' }) arguments!: unknown;
  @ApiProperty({ description: 'sha256 of the canonical JSON of the arguments: an approved call runs only with exactly these.' }) argumentsHash!: string;
  @ApiProperty({ type: ApproversDto }) approvers!: ApproversDto;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decidedAt!: string | null;
  @ApiProperty({ type: DeciderDto, nullable: true }) decidedBy!: DeciderDto | null;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
}

export class ApprovalDetailDto extends ApprovalDto {
  @ApiProperty({ type: [ExecutionResponseDto], description: "The caller's 10 latest executions, newest first." }) callerRecentExecutions!: ExecutionResponseDto[];
}

export class ApprovalPageDto extends PageDto(ApprovalDto, 'Newest first.') {}

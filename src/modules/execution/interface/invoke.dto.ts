import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ExecutionErrorViewDto, ExecutionResponseDto } from '../../executions/interface/execution.dto.js';

/** The per-call timeout a caller may ask for, in ms. */
export const INVOKE_TIMEOUT_MS = { min: 1, max: 3_600_000 } as const;
/** The longest requestState echoed back, in characters (as class-validator's MaxLength counts them). */
export const MAX_REQUEST_STATE_LENGTH = 1_000_000;

export class InvokeToolDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: 'The tool arguments, checked against its inputSchema. Absent or null: {}.' })
  @IsOptional()
  arguments?: unknown;

  @ApiPropertyOptional({ nullable: true, type: Number, minimum: INVOKE_TIMEOUT_MS.min, maximum: INVOKE_TIMEOUT_MS.max, description: "Per-call timeout; default the source's timeoutMs, capped by TOOLPLANE_MAX_CALL_TIMEOUT_MS." })
  @IsOptional()
  @IsInt()
  @Min(INVOKE_TIMEOUT_MS.min)
  @Max(INVOKE_TIMEOUT_MS.max)
  timeoutMs?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: 'Answers to an input_required result (2026-07-28 multi round-trip), keyed as asked.' })
  @IsOptional()
  @IsObject()
  inputResponses?: Record<string, unknown>;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'The requestState of the input_required result, echoed unchanged.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_REQUEST_STATE_LENGTH)
  requestState?: string;
}

/** A refused or failed call: the one error shape, plus the recorded execution. */
export class ExecutionFailureDto {
  @ApiProperty({ type: ExecutionErrorViewDto, description: 'The one error shape: {code, message, details}.' }) error!: ExecutionErrorViewDto;
  @ApiProperty({ type: ExecutionResponseDto, description: 'The recorded execution.' }) execution!: ExecutionResponseDto;
}

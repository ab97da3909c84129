import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ExecutionErrorViewDto, ExecutionResponseDto } from '../../audit/interface/execution.dto.js';

export class InvokeToolDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The tool arguments, checked against its inputSchema. Default {}.' })
  @IsOptional()
  arguments?: unknown;

  @ApiPropertyOptional({ minimum: 1, maximum: 3_600_000, description: "Per-call timeout; default the source's timeoutMs, capped by TOOLPLANE_MAX_CALL_TIMEOUT_MS." })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  timeoutMs?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Answers to an input_required result (2026-07-28 multi round-trip), keyed as asked.' })
  @IsOptional()
  @IsObject()
  inputResponses?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'The requestState of the input_required result, echoed unchanged.' })
  @IsOptional()
  @IsString()
  @MaxLength(1_000_000)
  requestState?: string;
}

/** A refused or failed call: the one error shape, plus the recorded execution. */
export class ExecutionFailureDto {
  @ApiProperty({ type: ExecutionErrorViewDto, description: 'The one error shape: {code, message, details}.' }) error!: ExecutionErrorViewDto;
  @ApiProperty({ type: ExecutionResponseDto, description: 'The recorded execution.' }) execution!: ExecutionResponseDto;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ErrorDetailDto } from '../../../shared/http/error-response.js';
import { InterceptorChangesDto } from '../../executions/interface/execution.dto.js';
import type { InterceptorPreview } from '../application/preview-interceptor/preview-interceptor.query.js';
import { CreateInterceptorDto } from './interceptor.dto.js';

/** A result as a tool answers it, for a post interceptor to see. */
export class SampleResultDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'MCP content blocks, each with its `type`.', example: [{ type: 'text', text: 'Write to ada@example.com' }] }) @Allow() content!: unknown;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @Allow() structuredContent?: unknown;
  @ApiPropertyOptional({ type: Boolean, description: 'The tool answered an error. Default false.' }) @Allow() isError?: unknown;
}

export class SampleCallDto {
  @ApiProperty({ type: String, example: 'crm__get_contact', description: "The tool's qualified name. A tool the inventory does not know is tried as a stand-in: no schema, its source read from the name." }) @Allow() tool!: unknown;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "The arguments (default {}); for a pre interceptor they must match the tool's inputSchema, as a call's must before any pre interceptor runs." }) @Allow() arguments?: unknown;
  @ApiPropertyOptional({ type: SampleResultDto, description: 'Required for a post interceptor: what the tool answered.' }) @Allow() result?: unknown;
  @ApiPropertyOptional({ type: String, description: 'The tool group the call comes through; absent: none.' }) @Allow() group?: unknown;
}

/** Only names the fields: PreviewInterceptor checks every value, so each problem is reported at once. */
export class PreviewInterceptorDto {
  @ApiProperty({ type: CreateInterceptorDto, description: 'An interceptor as `POST /api/v1/interceptors` takes it; it is not saved.' }) @Allow() interceptor!: unknown;
  @ApiProperty({ type: SampleCallDto }) @Allow() call!: unknown;
}

class PreviewedToolRefDto {
  @ApiProperty() qualifiedName!: string;
  @ApiProperty({ description: "The tool's source (read from the name for a tool the inventory does not know)." }) source!: string;
  @ApiProperty({ description: 'Whether the inventory knows the tool; a stand-in has no schema.' }) known!: boolean;
}

class PreviewedResultDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) content!: unknown[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) structuredContent?: unknown;
  @ApiProperty({ description: 'The result is a tool error (as the tool answered it, unless the interceptor said otherwise).' }) isError!: boolean;
}

export class InterceptorPreviewDto implements InterceptorPreview {
  @ApiProperty({ description: 'Whether it would run on a call like this: enabled, and its scope matching. What it would do is shown either way.' }) applies!: boolean;
  @ApiPropertyOptional({ description: 'Why it would not apply.' }) why?: string;
  @ApiProperty({ type: PreviewedToolRefDto }) tool!: PreviewedToolRefDto;
  @ApiProperty({ enum: ['allow', 'modify', 'deny', 'hold', 'error'], description: '`hold`: the call would wait for a person\'s approval; `error`: it failed or timed out; its onError decides whether the call is refused.' }) decision!: 'allow' | 'modify' | 'deny' | 'error' | 'hold';
  @ApiProperty({ description: 'Whether the call would be refused: a denial, or a failure under onError deny.' }) refused!: boolean;
  @ApiPropertyOptional({ description: 'deny: what the caller would be told; error: why it failed.' }) message?: string;
  @ApiPropertyOptional() warning?: string;
  @ApiPropertyOptional({ example: 'INTERCEPTOR_DENIED', description: 'The code of the refusal.' }) code?: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto] }) details?: ErrorDetailDto[];
  @ApiProperty({ type: InterceptorChangesDto, description: 'What it changed (empty unless it modified the call).' }) changes!: InterceptorChangesDto;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'pre: the arguments as the upstream would get them.' }) arguments?: Record<string, unknown>;
  @ApiPropertyOptional({ type: PreviewedResultDto, description: 'post: the result as the caller would get it.' }) result?: PreviewedResultDto;
  @ApiProperty({ description: 'How long the run took, in milliseconds.' }) durationMs!: number;
}

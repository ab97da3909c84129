import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ToolResponseDto } from '../../inventory/interface/tool.dto.js';

const schemaObject = { type: 'object', additionalProperties: true } as const;
const NAME = { example: 'everything__echo', pattern: '^[a-zA-Z0-9_-]{1,64}$', description: 'The qualified name.' };

/** Every field the upstream declared is passed on (those below, and fields of later revisions), in its key order. */
export class McpToolDto {
  @ApiProperty(NAME) name!: string;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty(schemaObject) inputSchema!: Record<string, unknown>;
  @ApiPropertyOptional(schemaObject) outputSchema?: Record<string, unknown>;
  @ApiPropertyOptional(schemaObject) annotations?: Record<string, unknown>;
  @ApiPropertyOptional({ ...schemaObject, description: 'How the tool runs (taskSupport).' }) execution?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'array', items: schemaObject }) icons?: Record<string, unknown>[];
  @ApiPropertyOptional({ ...schemaObject, description: "As the upstream declared it; for a reader that lacks its own credential for the tool's source, with `io.toolplane/connection` = `{required: true, source, connectUrl?}`." })
  _meta?: Record<string, unknown>;
}

export class OpenAiFunctionDto {
  @ApiProperty(NAME) name!: string;
  @ApiProperty({ maxLength: 1024, description: 'The description, else the title, else a generated one; cut at 1024 characters.' }) description!: string;
  @ApiProperty({ ...schemaObject, description: 'The input schema (converted for strict mode with strict=true).' }) parameters!: Record<string, unknown>;
  @ApiPropertyOptional({ enum: [true], description: 'Present with strict=true.' }) strict?: boolean;
}

export class OpenAiChatToolDto {
  @ApiProperty({ enum: ['function'] }) type!: 'function';
  @ApiProperty({ type: OpenAiFunctionDto }) function!: OpenAiFunctionDto;
}

export class OpenAiResponsesToolDto {
  @ApiProperty({ enum: ['function'] }) type!: 'function';
  @ApiProperty(NAME) name!: string;
  @ApiProperty({ maxLength: 1024 }) description!: string;
  @ApiProperty(schemaObject) parameters!: Record<string, unknown>;
  @ApiProperty({ description: 'Always given: the Responses API treats a missing strict as true.' }) strict!: boolean;
}

export class AnthropicToolDto {
  @ApiProperty(NAME) name!: string;
  @ApiProperty({ description: 'The description, else the title, else a generated one.' }) description!: string;
  @ApiProperty(schemaObject) input_schema!: Record<string, unknown>;
}

export class NotConvertibleDto {
  @ApiProperty(NAME) name!: string;
  @ApiProperty({ example: '$.properties.tags: is a map (additionalProperties); strict mode allows only declared properties' }) reason!: string;
}

/** One tool of a previewed group: the admin view of the tool as the group would serve it. */
export class PreviewedToolDto extends ToolResponseDto {
  @ApiProperty({ description: 'The name the group would serve it under.' }) servedName!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Arguments every call would get; a caller may not give them.' }) locked!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Arguments a call would get when its caller leaves them out.' }) defaults!: Record<string, unknown>;
}

export class GroupPreviewDto {
  @ApiProperty({ type: [PreviewedToolDto], description: 'In served-name order.' }) items!: PreviewedToolDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { CatalogTool, CatalogToolSource, ToolStatus } from '../domain/tool-definition.js';
import { PageDto } from '../../../shared/http/page.dto.js';
import { TOOL_REVIEW_STATES, type ToolReviewState } from '../domain/pinning/pinning.js';
import { DefinitionFindingDto } from './finding.dto.js';

export class UpdateToolDto {
  @ApiProperty({ description: 'Whether agents may use the tool.' })
  @IsBoolean()
  enabled!: boolean;
}

class ToolSourceDto implements CatalogToolSource {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() readOnly!: boolean;
}

/** The admin view of a tool, as OpenAPI shows it: CatalogTool, field for field. */
export class ToolResponseDto implements CatalogTool {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'github__create_issue', pattern: '^[a-zA-Z0-9_-]{1,64}$' }) qualifiedName!: string;
  @ApiProperty({ description: 'The name upstream.' }) name!: string;
  @ApiProperty({ type: ToolSourceDto }) source!: ToolSourceDto;
  @ApiProperty({ nullable: true, type: String }) title!: string | null;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'In a catalog listing, for a reader that lacks its own credential for the tool\'s source: `io.toolplane/connection` = `{required: true, source, connectUrl?}` ' +
      '(and the description ends with a sentence saying so). Absent otherwise.',
  })
  _meta?: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) inputSchema!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) outputSchema!: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) annotations!: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The tool object exactly as its upstream declared it (every field, e.g. execution, icons, _meta, in its key order), under its upstream name.',
  })
  definition!: Record<string, unknown>;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Why the tool cannot be called (its inputSchema is over a limit or cannot be compiled); null when it can. Such a tool is left out of agent catalogs; calls answer 409 TOOL_UNUSABLE.',
    example: null,
  })
  unusableReason!: string | null;
  @ApiProperty({ description: 'SHA-256 of the definition in a canonical form: it changes when the definition does, not when only its key order does.' })
  definitionHash!: string;
  @ApiProperty({ description: 'SHA-256 of the definition exactly as declared, key order included.' }) declaredHash!: string;
  @ApiProperty({ enum: ['active', 'deprecated'] }) status!: ToolStatus;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    enum: TOOL_REVIEW_STATES,
    description:
      "Whether the current definition is served: approved; or held out of every catalog, calls answering 409, until a reviewer decides (pending_review, TOOL_PENDING_REVIEW) or its upstream changes it again (rejected, TOOL_REJECTED). See GET /api/v1/reviews.",
  })
  reviewState!: ToolReviewState;
  @ApiProperty({ type: [DefinitionFindingDto], description: 'What the definition scan found in the current definition when it was new or changed.' })
  findings!: DefinitionFindingDto[];
  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: "Where the source's upstream lists the tool in its tools/list, 0 first (null until a refresh has seen it): /mcp/sources/{name} lists a source's tools in this order.",
    example: 0,
  })
  listPosition!: number | null;
  @ApiProperty({ format: 'date-time' }) firstSeenAt!: string;
  @ApiProperty({ format: 'date-time' }) lastSeenAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class ToolPageDto extends PageDto(ToolResponseDto) {}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageDto } from '../../../shared/http/page.dto.js';
import { REVIEW_STATES } from '../domain/pinning/definition-review.js';
import { DefinitionFindingDto } from './finding.dto.js';

export class DecideReviewDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'Why: kept with the review and in the audit trail.', example: 'The new path parameter is expected.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment?: string | null;
}

class ValueChangeDto {
  @ApiProperty({ nullable: true, description: 'null: absent.' }) before!: unknown;
  @ApiProperty({ nullable: true, description: 'null: absent.' }) after!: unknown;
}

class TextHunkDto {
  @ApiProperty({ enum: ['equal', 'added', 'removed'] }) op!: string;
  @ApiProperty() text!: string;
}

class TextDiffDto {
  @ApiProperty({ nullable: true, type: String }) before!: string | null;
  @ApiProperty({ nullable: true, type: String }) after!: string | null;
  @ApiProperty({ enum: ['word', 'line', 'whole'], description: 'Words where the texts align word by word within a bounded effort, else lines, else the whole text replaced.' })
  granularity!: string;
  @ApiProperty({ type: [TextHunkDto], description: 'In order: equal + removed spell the text before, equal + added the text after.' }) hunks!: TextHunkDto[];
}

class JsonChangeDto {
  @ApiProperty({ description: "A JSON Pointer into the schema ('' for the whole).", example: '/properties/path/type' }) path!: string;
  @ApiProperty({ enum: ['added', 'removed', 'changed'] }) op!: string;
  @ApiPropertyOptional({ description: 'Absent for added.' }) before?: unknown;
  @ApiPropertyOptional({ description: 'Absent for removed.' }) after?: unknown;
}

class SchemaDiffDto {
  @ApiProperty({ type: [JsonChangeDto] }) changes!: JsonChangeDto[];
  @ApiProperty({ description: 'More changes than listed (at most 200 are).' }) truncated!: boolean;
}

class AnnotationChangeDto {
  @ApiProperty({ example: 'readOnlyHint' }) name!: string;
  @ApiProperty({ nullable: true, description: 'null: not declared.' }) before!: unknown;
  @ApiProperty({ nullable: true, description: 'null: not declared.' }) after!: unknown;
}

class DefinitionDiffDto {
  @ApiProperty({ type: ValueChangeDto, nullable: true, description: 'null: unchanged (a rename changes it).' }) name!: ValueChangeDto | null;
  @ApiProperty({ type: ValueChangeDto, nullable: true }) title!: ValueChangeDto | null;
  @ApiProperty({ type: TextDiffDto, nullable: true }) description!: TextDiffDto | null;
  @ApiProperty({ type: SchemaDiffDto, nullable: true }) inputSchema!: SchemaDiffDto | null;
  @ApiProperty({ type: SchemaDiffDto, nullable: true }) outputSchema!: SchemaDiffDto | null;
  @ApiProperty({ type: [AnnotationChangeDto] }) annotations!: AnnotationChangeDto[];
  @ApiProperty({ type: SchemaDiffDto, nullable: true, description: 'The other fields of the definition (execution, _meta, icons…), at /<field>….' }) other!: SchemaDiffDto | null;
}

class ReviewSourceDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
}

export class ReviewDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({
    enum: REVIEW_STATES,
    description: 'pending: the tool is held until decided; approved; rejected: held until its upstream changes the definition again; superseded: the upstream changed it again before a decision (a newer review took over).',
  })
  state!: string;
  @ApiProperty({ format: 'uuid' }) toolId!: string;
  @ApiProperty({ example: 'github__create_issue' }) qualifiedName!: string;
  @ApiProperty({ description: 'The name upstream.' }) toolName!: string;
  @ApiProperty({ type: ReviewSourceDto }) source!: ReviewSourceDto;
  @ApiProperty({ description: 'The hash of the definition under review.' }) definitionHash!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The definition under review, as its upstream declared it.' }) definition!: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: String }) previousHash!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The last approved definition (of this tool, or of the one it was renamed from); null for a new tool.',
  })
  previousDefinition!: Record<string, unknown> | null;
  @ApiProperty({
    type: [String],
    description:
      'What changed, by name: new_tool, renamed_from:<name>, title_changed, description_changed, input_schema_changed, output_schema_changed, annotations_changed, other_fields_changed, more_destructive (readOnlyHint true→false, destructiveHint false→true, openWorldHint false→true), new_required_parameter, widened_schema.',
    example: ['description_changed', 'annotations_changed', 'more_destructive'],
  })
  changes!: string[];
  @ApiProperty({ type: DefinitionDiffDto, nullable: true, description: 'Field by field against previousDefinition; null for a new tool.' }) diff!: DefinitionDiffDto | null;
  @ApiProperty({ type: [DefinitionFindingDto], description: 'What the definition scan found in the definition under review.' }) findings!: DefinitionFindingDto[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) decidedAt!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The principal that approved or rejected it.' }) decidedBy!: string | null;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
}

export class ReviewPageDto extends PageDto(ReviewDto) {}

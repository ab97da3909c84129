import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { optionalFields } from '../../../shared/http/optional-fields.js';
import { PageDto } from '../../../shared/http/page.dto.js';
import { GROUP_LIMITS, GROUP_NAME_PATTERN } from '../domain/group-spec.js';
import type { GroupView } from '../application/group-view.js';
import type { GroupSelector, ToolOverride } from '../domain/group.js';

const HINTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { readOnlyHint: { type: 'boolean' }, destructiveHint: { type: 'boolean' }, idempotentHint: { type: 'boolean' }, openWorldHint: { type: 'boolean' } },
} as const;

const SELECT_SCHEMA = {
  type: 'array',
  maxItems: GROUP_LIMITS.selectors,
  description:
    'Selectors, unioned: a tool matches a selector when it matches every field the selector gives (a source name pattern, a qualified-name pattern, ' +
    'each hint as declared or by its MCP default). `*` matches any run of characters.',
  items: {
    type: 'object',
    additionalProperties: false,
    properties: {
      sources: { type: 'array', items: { type: 'string' }, maxItems: GROUP_LIMITS.patternsPerSelector, example: ['tickets'] },
      tools: { type: 'array', items: { type: 'string' }, maxItems: GROUP_LIMITS.patternsPerSelector, example: ['github__get_*'] },
      annotations: HINTS_SCHEMA,
    },
  },
} as const;

const NAMES_SCHEMA = (description: string) => ({ type: 'array', items: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' }, maxItems: GROUP_LIMITS.names, description }) as const;

const OVERRIDES_SCHEMA = {
  type: 'object',
  description: 'How the group serves a tool, by its qualified name.',
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$', description: 'The served name; never containing `__`, unique in the group.' },
      title: { type: 'string', maxLength: GROUP_LIMITS.title },
      description: { type: 'string', maxLength: GROUP_LIMITS.toolDescription },
      annotations: HINTS_SCHEMA,
      defaults: { type: 'object', additionalProperties: true, description: 'Argument values used when the caller leaves them out (or sends null).' },
      locked: { type: 'object', additionalProperties: true, description: 'Argument values every call gets; removed from the served schema, refused when a caller sends them (ARGUMENT_LOCKED).' },
    },
  },
  example: { tickets__create_ticket: { name: 'open_ticket', locked: { queue: 'support' } } },
} as const;

/** The fields after the name, which a create and a change both only name (checkGroupSpec reads them). */
const SPEC_FIELDS = {
  description: { type: String, maxLength: GROUP_LIMITS.description },
  select: SELECT_SCHEMA,
  include: NAMES_SCHEMA('Qualified names added whatever the selectors say.'),
  exclude: NAMES_SCHEMA('Qualified names left out whatever the selectors and include say.'),
  overrides: OVERRIDES_SCHEMA,
} satisfies Record<string, ApiPropertyOptions>;

/** Only names the fields (the name here, the rest below): CreateGroup checks every value (checkGroupSpec), so each problem is reported at once. */
export class CreateGroupDto {
  @ApiProperty({ type: String, pattern: GROUP_NAME_PATTERN.source, example: 'support-bot' })
  @Allow()
  name!: unknown;
}

/** The fields given replace the group's (each list and the overrides as a whole); the name cannot change. */
export class UpdateGroupDto {
  @ApiPropertyOptional({ type: String, description: 'Only the group\'s own name is accepted: a group cannot be renamed.' })
  @Allow()
  name?: unknown;
}

optionalFields(CreateGroupDto, SPEC_FIELDS);
optionalFields(UpdateGroupDto, SPEC_FIELDS);

export class GroupDto implements GroupView {
  @ApiProperty({ example: 'support-bot' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty(SELECT_SCHEMA) select!: GroupSelector[];
  @ApiProperty(SPEC_FIELDS.include) include!: string[];
  @ApiProperty(SPEC_FIELDS.exclude) exclude!: string[];
  @ApiProperty(OVERRIDES_SCHEMA) overrides!: Record<string, ToolOverride>;
  @ApiProperty({ example: '/mcp/groups/support-bot', description: 'The group\'s MCP endpoint.' }) mcpPath!: string;
  @ApiProperty({ description: 'Bumped by every change.' }) version!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() createdBy!: string;
  @ApiProperty() updatedBy!: string;
}

export class GroupPageDto extends PageDto(GroupDto) {}

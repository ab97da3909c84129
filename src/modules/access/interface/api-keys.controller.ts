import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import type { ApiKeyView } from '../application/api-key-view.js';
import { CreateApiKeyCommand } from '../application/create-api-key/create-api-key.command.js';
import type { CreatedApiKey } from '../application/create-api-key/create-api-key.handler.js';
import { GetApiKeyQuery } from '../application/get-api-key/get-api-key.query.js';
import { ListApiKeysQuery, type ApiKeyPage } from '../application/list-api-keys/list-api-keys.query.js';
import { RevokeApiKeyCommand } from '../application/revoke-api-key/revoke-api-key.command.js';
import { ROLES } from '../../../shared/principal/permissions.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { PageDto } from '../../../shared/http/page.dto.js';

/** Only names the fields: CreateApiKey checks every value (checkApiKeySpec), so each problem is reported at once. */
export class CreateApiKeyDto {
  @ApiProperty({ type: String, example: 'billing-agent', maxLength: 100 })
  @Allow()
  name!: unknown;

  @ApiProperty({ enum: ROLES })
  @Allow()
  role!: unknown;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'Whom the key belongs to: a person, a team, an agent.' })
  @Allow()
  owner?: unknown;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time', description: 'Refused from then on; absent: never expires.' })
  @Allow()
  expiresAt?: unknown;

  @ApiPropertyOptional({ nullable: true, type: [String], example: ['github', 'jira*'], description: 'Source names (`*`: any run of characters) whose tools the key may see and call; absent or null: any.' })
  @Allow()
  allowedSources?: unknown;

  @ApiPropertyOptional({ nullable: true, type: [String], example: ['github__get_*'], description: 'Qualified tool names (`*` patterns) the key may see and call; with allowedSources, a tool must match both.' })
  @Allow()
  allowedTools?: unknown;

  @ApiPropertyOptional({ nullable: true, type: [String], example: ['support'], description: 'Tool group names (`*` patterns): the key sees and calls tools only through these groups (`/mcp/groups/{name}`, `GET /api/v1/tools?group=`, a group\'s invoke), where their locked arguments hold; absent or null: not bound to groups.' })
  @Allow()
  allowedGroups?: unknown;

  @ApiPropertyOptional({ nullable: true, type: Number, minimum: 1, description: 'Calls per minute of this key (a token bucket holding ten seconds of it); absent or null: TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL.' })
  @Allow()
  rateLimitPerMinute?: unknown;
}

export class ApiKeyDto implements ApiKeyView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) owner!: string | null;
  @ApiProperty({ enum: ROLES }) role!: ApiKeyView['role'];
  @ApiProperty({ example: 'tp_Xb3k9QaZ', description: 'The first characters of the key, to recognise it.' }) prefix!: string;
  @ApiProperty({ enum: ['active', 'revoked', 'expired'] }) state!: ApiKeyView['state'];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'The principal that created it.' }) createdBy!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expiresAt!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revokedAt!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'Updated at most once a minute.' }) lastUsedAt!: string | null;
  @ApiProperty({ nullable: true, type: [String] }) allowedSources!: string[] | null;
  @ApiProperty({ nullable: true, type: [String] }) allowedTools!: string[] | null;
  @ApiProperty({ nullable: true, type: [String] }) allowedGroups!: string[] | null;
  @ApiProperty({ nullable: true, type: Number }) rateLimitPerMinute!: number | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The key: shown this once, stored only as a hash.' }) key!: string;
}

export class ApiKeyPageDto extends PageDto(ApiKeyDto) {}

@ApiController('api/v1/api-keys', 'access')
export class ApiKeysController extends BusController {
  @Post()
  @ApiOperation({ summary: 'Create an API key' })
  @Requires('keys:manage')
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: 'The key is in `key`, this once.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  async create(@Body() body: CreateApiKeyDto, @CurrentPrincipal() principal: Principal): Promise<CreatedApiKey> {
    const { value, problems } = await validateDto(CreateApiKeyDto, body);
    return this.commands.execute(new CreateApiKeyCommand(value, principal.id, undefined, problems));
  }

  @Get()
  @ApiOperation({ summary: 'List API keys' })
  @Requires('keys:manage')
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiOkResponse({ type: ApiKeyPageDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  list(@Query() query: Record<string, unknown>): Promise<ApiKeyPage> {
    const { cursor, limit } = QueryParams.pageOnly(query, 50, 200);
    return this.queries.execute(new ListApiKeysQuery(cursor, limit));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get one API key' })
  @Requires('keys:manage')
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  get(@Param('id') id: string): Promise<ApiKeyView> {
    return this.queries.execute(new GetApiKeyQuery(id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key' })
  @HttpCode(200)
  @Requires('keys:manage')
  @ApiOkResponse({ type: ApiKeyDto, description: 'The key, revoked (revoking again changes nothing).' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  revoke(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ApiKeyView> {
    return this.commands.execute(new RevokeApiKeyCommand(id, principal.id));
  }
}

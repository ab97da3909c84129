import { Body, Get, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiPropertyOptional, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { stringify } from 'yaml';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { roleAllows, ROLES } from '../../../shared/principal/permissions.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApplyConfigCommand } from '../application/apply-config/apply-config.command.js';
import { ExportConfigQuery } from '../application/export-config/export-config.query.js';
import type { ConfigApplyResult } from '../domain/config-plan.js';
import { readConfigText, readConfigValue } from './config-document.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';

class PlannedChangeDto {
  @ApiProperty({ enum: ['source', 'group', 'interceptor', 'key'] }) kind!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['create', 'update', 'unchanged', 'delete'] }) action!: string;
  @ApiProperty({ type: [String], description: 'The settings an update changes.' }) fields!: string[];
}

class ChangeSummaryDto {
  @ApiProperty() create!: number;
  @ApiProperty() update!: number;
  @ApiProperty() unchanged!: number;
  @ApiProperty() delete!: number;
}

class ConfigApplyResultDto {
  @ApiProperty() dryRun!: boolean;
  @ApiProperty() prune!: boolean;
  @ApiProperty({ type: [PlannedChangeDto] }) changes!: PlannedChangeDto[];
  @ApiProperty({ type: ChangeSummaryDto }) summary!: ChangeSummaryDto;
}

/** An entry of the file's `keys:`. */
class DeclaredKeyDto {
  @ApiProperty({ description: 'Matches the active key of this name.' }) name!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) owner?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) expiresAt?: string | null;
  @ApiPropertyOptional({ nullable: true, type: [String], description: 'Source name patterns (`*`); absent or null: any.' }) allowedSources?: string[] | null;
  @ApiPropertyOptional({ nullable: true, type: [String], description: 'Qualified tool name patterns (`*`); absent or null: any.' }) allowedTools?: string[] | null;
  @ApiPropertyOptional({ nullable: true, type: [String], description: 'Tool group name patterns (`*`): the key sees and calls tools only through these groups; absent or null: not bound to groups.' }) allowedGroups?: string[] | null;
  @ApiPropertyOptional({ nullable: true, type: Number, minimum: 1 }) rateLimitPerMinute?: number | null;
  @ApiPropertyOptional({
    description: 'A `${secret:NAME}` or `${env:NAME}` reference holding the key (`tp_` and 43 base64url characters), needed to create it; `${stored}` or absent keeps the key it has.',
  })
  key?: string;
}

const FILE_SCHEMA = {
  type: 'object' as const,
  required: ['sources'],
  properties: {
    sources: { type: 'array' as const, items: { $ref: '#/components/schemas/RegisterSourceDto' } },
    groups: { type: 'array' as const, items: { $ref: '#/components/schemas/CreateGroupDto' }, description: 'Tool groups by name (needs groups:manage), each in the shape of `POST /api/v1/groups`. Absent: groups are left as they are, even with prune.' },
    interceptors: {
      type: 'array' as const,
      items: { $ref: '#/components/schemas/CreateInterceptorDto' },
      description: 'Interceptors by name (needs interceptors:manage), each in the shape of `POST /api/v1/interceptors`. Absent: interceptors are left as they are, even with prune.',
    },
    keys: { type: 'array' as const, items: { $ref: getSchemaPath(DeclaredKeyDto) }, description: 'API keys by name (needs keys:manage). Absent: keys are left as they are, even with prune.' },
  },
};

@ApiController('api/v1/config', 'config')
@ApiExtraModels(DeclaredKeyDto)
export class ConfigController extends BusController {
  @Post('apply')
  @ApiOperation({ summary: 'Apply a configuration file' })
  @Requires('sources:write')
  @HttpCode(200)
  @ApiConsumes('application/yaml', 'application/json')
  @ApiBody({ description: 'The configuration file: `sources:`, each in the registration shape, and optionally `groups:`, `interceptors:` and `keys:`. YAML or the same document as JSON.', schema: FILE_SCHEMA })
  @ApiQuery({ name: 'dryRun', required: false, type: Boolean, description: 'Only answer what applying would change.' })
  @ApiQuery({ name: 'prune', required: false, type: Boolean, description: 'Also remove live sources the file does not declare; when it has `groups:` or `interceptors:`, remove those it does not name; when it has `keys:`, revoke active keys it does not name.' })
  @ApiQuery({ name: 'wait', required: false, type: Boolean, description: 'false: answer before the first discoveries finish.' })
  @ApiOkResponse({ type: ConfigApplyResultDto })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Every problem of the file; nothing was applied.' })
  @ApiResponse({ status: 401, type: ErrorResponseDto })
  @ApiResponse({ status: 403, type: ErrorResponseDto, description: 'The file declares groups, interceptors or keys and the caller may not manage them.' })
  async apply(@Body() body: unknown, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<ConfigApplyResult> {
    const params = new QueryParams(query);
    const options = { dryRun: params.boolean('dryRun') ?? false, prune: params.boolean('prune') ?? false, waitForDiscovery: params.boolean('wait') ?? true };
    params.done();
    const document = typeof body === 'string' ? await readConfigText(body) : await readConfigValue(body);
    const may = { groups: roleAllows(principal.roles, 'groups:manage'), interceptors: roleAllows(principal.roles, 'interceptors:manage'), keys: roleAllows(principal.roles, 'keys:manage') };
    return this.commands.execute(new ApplyConfigCommand(document.sources, document.problems, options, principal.id, document, may));
  }

  @Get('export')
  @ApiOperation({ summary: 'Export the sources (and groups, interceptors and keys) as a configuration file' })
  @Requires('sources:read')
  @ApiProduces('application/yaml', 'application/json')
  @ApiOkResponse({ description: 'The live sources, for a caller that may manage them the tool groups and the interceptors, and for a caller that may manage keys the active API keys, as a configuration file; no secret value (see `${stored}`).', schema: FILE_SCHEMA })
  @ApiResponse({ status: 401, type: ErrorResponseDto })
  async export(@Headers('accept') accept: string | undefined, @Res({ passthrough: true }) reply: FastifyReply, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    const document = await this.queries.execute(
      new ExportConfigQuery(roleAllows(principal.roles, 'keys:manage'), roleAllows(principal.roles, 'groups:manage'), roleAllows(principal.roles, 'interceptors:manage')),
    );
    if (prefersJson(accept)) return document;
    void reply.header('content-type', 'application/yaml; charset=utf-8');
    return stringify(document, { lineWidth: 0 });
  }
}

/** JSON only when asked for by name ahead of YAML; YAML is the file format. */
function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = accept.indexOf('application/json');
  const yaml = accept.search(/(application|text)\/(x-)?yaml/);
  return json !== -1 && (yaml === -1 || json < yaml);
}

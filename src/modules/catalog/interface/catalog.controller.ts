import { Get, Headers, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { ApiController } from '../../../shared/http/api-controller.js';
import type { Principal } from '../../../shared/principal/principal.js';
import type { CatalogPage } from '../application/search-catalog/search-catalog.query.js';
import { CatalogListing } from './catalog-listing.js';
import { ToolResponseDto } from '../../inventory/interface/tool.dto.js';
import { CATALOG_FORMATS } from '../domain/catalog.js';
import { AnthropicToolDto, McpToolDto, NotConvertibleDto, OpenAiChatToolDto, OpenAiResponsesToolDto } from './catalog.dto.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';

const ITEM_MODELS = [ToolResponseDto, McpToolDto, OpenAiChatToolDto, OpenAiResponsesToolDto, AnthropicToolDto];
const hint = (name: string, description: string) => ApiQuery({ name, required: false, enum: ['true', 'false'], description });

function applyAll(...decorators: MethodDecorator[]): MethodDecorator {
  return (target, key, descriptor) => {
    for (const d of decorators) d(target, key, descriptor);
  };
}

@ApiController('api/v1/tools', 'tools')
@ApiExtraModels(...ITEM_MODELS, NotConvertibleDto)
export class CatalogController extends CatalogListing {
  @Get()
  @Requires('catalog:read')
  @ApiOperation({
    operationId: 'Tools_list',
    summary: 'The tool catalog: search, filter, and list tools in the format an agent or LLM API takes',
    description:
      'By default only what agents may call: active, enabled tools of enabled sources. `status`, `enabled` and ' +
      '`includeDisabledSources` widen it. With `q`, results are ordered by rank (descending), then qualified name, ' +
      'and the cursor carries both. Answers carry an `ETag`; send it back in `If-None-Match` for a 304 while the ' +
      'tools the listing covers are unchanged.',
  })
  @ApiQuery({
    name: 'q',
    required: false,
    description:
      'Full-text search over names (upstream and qualified), title and description, every word matching as a prefix; ' +
      'parts of names match too (get-su finds get-sum). Name matches rank first.',
  })
  @ApiQuery({ name: 'source', required: false, description: 'Source id or name.' })
  @ApiQuery({
    name: 'group',
    required: false,
    description: 'A tool group: its tools under the names it serves them, with its overrides (titles, descriptions, locked arguments out of the schemas, defaults). Unknown: 404 GROUP_NOT_FOUND.',
  })
  @ApiQuery({ name: 'as', required: false, description: 'An API key id: the catalog as that key sees it (admins only), to check a key before handing it out.' })
  @ApiQuery({ name: 'status', required: false, enum: ['active', 'deprecated', 'all'], description: 'Default active.' })
  @ApiQuery({ name: 'enabled', required: false, enum: ['true', 'false', 'all'], description: 'Default true.' })
  @ApiQuery({ name: 'includeDisabledSources', required: false, enum: ['true', 'false'], description: 'Default false.' })
  @applyAll(
    hint('readOnly', 'true: annotated readOnlyHint true; false: not annotated so.'),
    hint('destructive', 'true: not read-only and destructiveHint not false (MCP default true); false: the others.'),
    hint('idempotent', 'true: read-only, or idempotentHint true (MCP default false); false: the others.'),
    hint('openWorld', 'true: openWorldHint not false (MCP default true); false: openWorldHint false.'),
  )
  @ApiQuery({
    name: 'format',
    required: false,
    enum: [...CATALOG_FORMATS],
    description:
      'Default: the full admin view. mcp: MCP Tool objects; openai: Chat Completions tools; openai-responses: Responses API ' +
      'function tools; anthropic: Messages API tools. Names are qualified names.',
  })
  @ApiQuery({
    name: 'strict',
    required: false,
    enum: ['true', 'false'],
    description:
      'openai formats only: schemas converted for OpenAI strict mode (closed objects, every property required, optional ones ' +
      'nullable: a null stands for "absent"). Tools that cannot be converted are listed in notConvertible.',
  })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-500, default 100' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'An ETag of an earlier answer: 304 while it is still current.' })
  @ApiOkResponse({
    description: 'A page of tools in the asked format. notConvertible: only for the openai and anthropic formats.',
    headers: { ETag: { description: 'Changes when any tool the listing covers changes.', schema: { type: 'string' } } },
    schema: {
      type: 'object',
      required: ['items', 'nextCursor'],
      properties: {
        items: { type: 'array', items: { oneOf: ITEM_MODELS.map((m) => ({ $ref: getSchemaPath(m) })) } },
        nextCursor: { type: 'string', nullable: true },
        notConvertible: { type: 'array', items: { $ref: getSchemaPath(NotConvertibleDto) } },
      },
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match tag is current.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GROUP_NOT_FOUND' })
  async list(
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CatalogPage | undefined> {
    return this.page(query, ifNoneMatch, reply, principal);
  }
}

import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiQuery } from '@nestjs/swagger';
import { QueryParams } from '../../../shared/http/query-params.js';
import { AuditEventPage, ListAuditEventsQuery } from '../application/list-audit-events/list-audit-events.query.js';
import { Requires } from '../../../shared/http/route-access.js';
import { VerifyAuditChainQuery, type AuditChainReport } from '../application/verify-audit-chain/verify-audit-chain.query.js';
import { ChainHeadDto, ChainProblemDto } from './chain.dto.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { PageDto } from '../../../shared/http/page.dto.js';

class AuditEventDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty() actor!: string;
  @ApiProperty({ example: 'source.registered' }) action!: string;
  @ApiProperty({ enum: ['source', 'tool', 'secret', 'user-secret', 'api-key', 'config', 'executions', 'group', 'interceptor', 'approval'] }) targetType!: string;
  @ApiProperty({ nullable: true, type: String }) targetId!: string | null;
  @ApiProperty({ nullable: true, type: String }) targetName!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details!: Record<string, unknown>;
  @ApiProperty({ description: 'Its number in the hash chain.' }) seq!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Its hash in the chain.' }) hash!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The X-Request-Id of the request that made the change.' }) requestId!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The client's address." }) clientAddress!: string | null;
}

class AuditChainReportDto {
  @ApiProperty({ description: 'Every event links to the one before, recomputes to its hash and carries a valid signature.' }) intact!: boolean;
  @ApiProperty({ description: 'Events verified (up to the first problem).' }) events!: number;
  @ApiProperty({ type: ChainHeadDto, nullable: true, description: 'The last verified link: keep it elsewhere to notice a trail cut short later.' }) head!: ChainHeadDto | null;
  @ApiProperty({ type: ChainProblemDto, required: false }) firstProblem?: ChainProblemDto;
  @ApiProperty({ description: "The signing key's id." }) keyId!: string;
  @ApiProperty({ description: 'The Ed25519 public key (PEM), to verify the trail elsewhere.' }) publicKey!: string;
}

class AuditEventPageDto extends PageDto(AuditEventDto) {}

@ApiController('api/v1/audit-events', 'audit')
export class AuditEventsController extends BusController {
  @Get('verify')
  @ApiOperation({ summary: "Verify the audit trail's hash chain" })
  @Requires('audit:read')
  @ApiOkResponse({ type: AuditChainReportDto })
  verify(): Promise<AuditChainReport> {
    return this.queries.execute(new VerifyAuditChainQuery());
  }

  @Get()
  @ApiOperation({ summary: 'List audit events' })
  @Requires('audit:read')
  @ApiQuery({ name: 'action', required: false })
  @ApiQuery({ name: 'targetType', required: false, enum: ['source', 'tool', 'secret', 'user-secret', 'api-key', 'config', 'executions', 'group', 'interceptor', 'approval'] })
  @ApiQuery({ name: 'target', required: false, description: 'Target id or name.' })
  @ApiQuery({ name: 'actor', required: false })
  @ApiQuery({ name: 'since', required: false, type: String, format: 'date-time' })
  @ApiQuery({ name: 'until', required: false, type: String, format: 'date-time' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiOkResponse({ type: AuditEventPageDto })
  list(@Query() query: Record<string, unknown>): Promise<AuditEventPage> {
    const params = new QueryParams(query);
    const filter = {
      action: params.string('action', { max: 64 }),
      targetType: params.string('targetType', { oneOf: ['source', 'tool', 'secret', 'user-secret', 'api-key', 'config', 'executions', 'group', 'interceptor', 'approval'] }),
      target: params.string('target', { max: 200 }),
      actor: params.string('actor', { max: 200 }),
      since: params.date('since'),
      until: params.date('until'),
    };
    const { cursor, limit } = params.page(50, 500);
    params.done();
    return this.queries.execute(new ListAuditEventsQuery(filter, cursor, limit));
  }
}

import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { validateDtoOrThrow } from '../../../shared/http/validate-dto.js';
import { ExplainAccessQuery, type AccessExplanation } from '../application/explain-access/explain-access.query.js';
import { PERMISSIONS, roleAllows } from '../../../shared/principal/permissions.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';

export class ExplainAccessDto {
  @ApiProperty({ description: 'An API key id, or "admin".', example: 'admin' })
  @IsString()
  @MaxLength(100)
  principal!: string;

  @ApiProperty({ description: 'A qualified tool name.', example: 'github__create_issue' })
  @IsString()
  @MaxLength(300)
  tool!: string;

  @ApiPropertyOptional({ description: 'The tool group the call would go through (`/mcp/groups/{name}`, a group\'s invoke); absent: outside any group.', example: 'support' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  group?: string;
}

export class ExplainedPrincipalDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['bootstrap-key', 'api-key', 'anonymous'] }) kind!: string;
  @ApiProperty({ type: [String] }) roles!: string[];
  @ApiProperty({ nullable: true, type: [String] }) allowedSources!: string[] | null;
  @ApiProperty({ nullable: true, type: [String] }) allowedTools!: string[] | null;
  @ApiProperty({ nullable: true, type: [String] }) allowedGroups!: string[] | null;
}

export class AccessExplanationDto {
  @ApiProperty({ type: ExplainedPrincipalDto }) principal!: ExplainedPrincipalDto;
  @ApiProperty() tool!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The group the call would go through; null: outside any group.' }) group!: string | null;
  @ApiProperty() allowed!: boolean;
  @ApiProperty({ example: 'allowedTools: "github__create_issue" matches "github__*"', description: 'The rule that decided.' }) rule!: string;
}

export class CurrentPrincipalDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['bootstrap-key', 'api-key', 'oidc', 'anonymous'] }) kind!: string;
  @ApiProperty({ type: [String] }) roles!: string[];
  @ApiProperty({ type: [String], description: 'Every permission the roles grant.' }) permissions!: string[];
  @ApiProperty({ nullable: true, type: [String] }) allowedSources!: string[] | null;
  @ApiProperty({ nullable: true, type: [String] }) allowedTools!: string[] | null;
  @ApiProperty({ nullable: true, type: [String], description: 'Tool groups the principal is bound to: it sees and calls tools only through them.' }) allowedGroups!: string[] | null;
}

@ApiController('api/v1/access', 'access')
export class AccessController extends BusController {
  @Get('me')
  @ApiOperation({ summary: 'Who the credential is and what it may do' })
  @Requires('catalog:read')
  @ApiOkResponse({ type: CurrentPrincipalDto, description: 'Who the credential names and what it may do (the console shows only what the caller may use).' })
  me(@CurrentPrincipal() principal: Principal): CurrentPrincipalDto {
    return {
      id: principal.id,
      name: principal.name,
      kind: principal.kind,
      roles: principal.roles,
      permissions: PERMISSIONS.filter((permission) => roleAllows(principal.roles, permission)),
      allowedSources: principal.scope?.sources ?? null,
      allowedTools: principal.scope?.tools ?? null,
      allowedGroups: principal.scope?.groups ?? null,
    };
  }

  @Post('explain')
  @ApiOperation({ summary: 'Explain whether a key may see and call a tool' })
  @HttpCode(200)
  @Requires('keys:manage')
  @ApiOkResponse({ type: AccessExplanationDto, description: 'May this principal call this tool, and which rule decided (the same rules a call meets).' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'API_KEY_NOT_FOUND or TOOL_NOT_FOUND' })
  async explain(@Body() body: ExplainAccessDto): Promise<AccessExplanation> {
    const dto = await validateDtoOrThrow(ExplainAccessDto, body);
    return this.queries.execute(new ExplainAccessQuery(dto.principal, dto.tool, dto.group));
  }
}

import { Body, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { QueryParams } from '../../../shared/http/query-params.js';
import { validateDtoOrThrow } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { DeleteSecretCommand } from '../application/delete-secret/delete-secret.command.js';
import { ListSecretsQuery, SecretPage } from '../application/list-secrets/list-secrets.query.js';
import { PutSecretCommand } from '../application/put-secret/put-secret.command.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { PageDto } from '../../../shared/http/page.dto.js';

export class PutSecretDto {
  @ApiProperty({ description: 'The value; stored encrypted and never returned.', writeOnly: true })
  @IsString()
  value!: string;
}

export class SecretMetadataDto {
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class SecretPageDto extends PageDto(SecretMetadataDto) {}

@ApiController('api/v1/secrets', 'secrets')
export class SecretsController extends BusController {
  @Put(':name')
  @ApiOperation({ summary: 'Store or replace a secret' })
  @Requires('secrets:write')
  @ApiCreatedResponse({ type: SecretMetadataDto, description: 'Created (200 when replaced).' })
  @ApiOkResponse({ type: SecretMetadataDto, description: 'Replaced.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  async put(
    @Param('name') name: string,
    @Body() body: PutSecretDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SecretMetadataDto> {
    const dto = await validateDtoOrThrow(PutSecretDto, body);
    const saved = await this.commands.execute(new PutSecretCommand(name, dto.value, principal.id));
    void reply.status(saved.created ? 201 : 200);
    return { name: saved.name, createdAt: saved.createdAt.toISOString(), updatedAt: saved.updatedAt.toISOString() };
  }

  @Get()
  @ApiOperation({ summary: 'List secret names' })
  @Requires('secrets:read')
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiOkResponse({ type: SecretPageDto })
  list(@Query() query: Record<string, unknown>): Promise<SecretPage> {
    const { cursor, limit } = QueryParams.pageOnly(query, 100, 500);
    return this.queries.execute(new ListSecretsQuery(cursor, limit));
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Delete a secret' })
  @Requires('secrets:write')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  async remove(@Param('name') name: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new DeleteSecretCommand(name, principal.id));
  }
}

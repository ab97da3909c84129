import { Body, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { PutUserSecretCommand } from '../application/put-user-secret/put-user-secret.command.js';
import { DeleteUserSecretCommand } from '../application/delete-user-secret/delete-user-secret.command.js';
import { ListUserSecretsQuery, type UserSecretList } from '../application/list-user-secrets/list-user-secrets.query.js';
import { SecretMetadataDto } from './secrets.controller.js';

export class PutUserSecretDto {
  @ApiProperty({ description: 'Your value (at most 16 KiB); stored encrypted, never returned, sent only upstream with your own calls.', writeOnly: true })
  @IsString()
  value!: string;
}

export class UserSecretListDto {
  @ApiProperty({ type: [SecretMetadataDto] }) items!: SecretMetadataDto[];
}

/**
 * The caller's own secrets: the values of `${user-secret:NAME}` references in the sources it calls.
 * Each principal sees and changes only its own; values are never answered.
 */
@ApiController('api/v1/me/secrets', 'secrets')
export class MeSecretsController extends BusController {
  @Get()
  @ApiOperation({ summary: 'List your own secrets (names only)' })
  @Requires('tools:invoke')
  @ApiOkResponse({ type: UserSecretListDto })
  list(@CurrentPrincipal() principal: Principal): Promise<UserSecretList> {
    return this.queries.execute(new ListUserSecretsQuery(principal.id));
  }

  @Put(':name')
  @ApiOperation({ summary: 'Store or replace one of your own secrets', description: 'The value of `${user-secret:NAME}` in the sources you call. A source waiting for your credential (health awaiting_connection) is discovered with it.' })
  @Requires('tools:invoke')
  @ApiCreatedResponse({ type: SecretMetadataDto, description: 'Created (200 when replaced).' })
  @ApiOkResponse({ type: SecretMetadataDto, description: 'Replaced.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'USER_SECRET_LIMIT: you hold 100 already.' })
  @ApiBody({ type: PutUserSecretDto })
  async put(
    @Param('name') name: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SecretMetadataDto> {
    const { value, problems } = await validateDto(PutUserSecretDto, body);
    const saved = await this.commands.execute(new PutUserSecretCommand(principal.id, name, value.value, problems));
    void reply.status(saved.created ? 201 : 200);
    return { name: saved.name, createdAt: saved.createdAt.toISOString(), updatedAt: saved.updatedAt.toISOString() };
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Delete one of your own secrets' })
  @Requires('tools:invoke')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  async remove(@Param('name') name: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new DeleteUserSecretCommand(principal.id, name));
  }
}

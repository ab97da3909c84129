import { Delete, Get, Headers, HttpCode, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../../shared/domain-error.js';
import { ApiController, BusController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { CurrentPrincipal, Requires } from '../../../shared/http/route-access.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { ConnectSourceCommand } from '../application/connect-source/connect-source.command.js';
import { ListMyConnectionsQuery } from '../application/list-my-connections/list-my-connections.query.js';
import { ListSourceConnectionsQuery } from '../application/list-source-connections/list-source-connections.query.js';
import { RevokeConnectionCommand } from '../application/revoke-connection/revoke-connection.command.js';
import { AuthorizationStartDto, ConnectionListDto, SourceConnectionListDto } from './connection.dto.js';

/** Where a connect may send the browser back to: a path of the console, nothing else. */
export function checkedReturnTo(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^\/console(\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$/.test(value) || value.includes('//') || value.length > 500) {
    throw new DomainError('invalid', 'VALIDATION_FAILED', 'The request is invalid.', [{ path: 'returnTo', message: 'must be a path under /console/' }]);
  }
  return value;
}

@ApiController('api/v1', 'connections')
export class ConnectionsController extends BusController {
  @Get('sources/:name/connect')
  @ApiOperation({
    summary: "Connect to an OAuth source: redirects to its authorization server's consent (302), or answers the URL with Accept: application/json",
  })
  @Requires('tools:invoke')
  @ApiQuery({ name: 'returnTo', required: false, description: 'A console path to come back to after the callback (default /console/connections).' })
  @ApiHeader({ name: 'accept', required: false, description: 'application/json: answer the URL instead of redirecting.' })
  @ApiOkResponse({ type: AuthorizationStartDto })
  @ApiResponse({ status: 302, description: 'To the authorization server.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'SOURCE_NOT_OAUTH' })
  @ApiResponse({ status: 502, type: ErrorResponseDto, description: 'OAUTH_DISCOVERY_FAILED' })
  async connect(
    @Param('name') name: string,
    @Query('returnTo') returnTo: unknown,
    @Headers('accept') accept: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthorizationStartDto | undefined> {
    const started = await this.commands.execute(new ConnectSourceCommand(name, principal, checkedReturnTo(returnTo)));
    void reply.header('cache-control', 'no-store');
    if ((accept ?? '').includes('application/json')) return started;
    void reply.status(302).header('location', started.authorizationUrl);
    return undefined;
  }

  @Get('me/connections')
  @ApiOperation({ summary: "The caller's connections to per-user sources, and the sources it may connect to" })
  @Requires('tools:invoke')
  @ApiOkResponse({ type: ConnectionListDto })
  mine(@CurrentPrincipal() principal: Principal): Promise<ConnectionListDto> {
    return this.queries.execute(new ListMyConnectionsQuery(principal));
  }

  @Delete('me/connections/:source')
  @ApiOperation({ summary: "Disconnect: the caller's connection is deleted and its tokens revoked at the authorization server (RFC 7009) when it offers revocation" })
  @Requires('tools:invoke')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'CONNECTION_NOT_FOUND' })
  async disconnect(@Param('source') source: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new RevokeConnectionCommand(source, principal.id, principal.id));
  }

  @Get('sources/:name/connections')
  @ApiOperation({ summary: "Who is connected to a per-user source (never the tokens)" })
  @Requires('keys:manage')
  @ApiOkResponse({ type: SourceConnectionListDto })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  ofSource(@Param('name') name: string): Promise<SourceConnectionListDto> {
    return this.queries.execute(new ListSourceConnectionsQuery(name));
  }

  @Delete('sources/:name/connections/:principalId')
  @ApiOperation({ summary: "Revoke a principal's connection to a source (deleted, and revoked at the authorization server)" })
  @Requires('keys:manage')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'CONNECTION_NOT_FOUND' })
  async revoke(@Param('name') name: string, @Param('principalId') principalId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.commands.execute(new RevokeConnectionCommand(name, principalId, principal.id));
  }
}

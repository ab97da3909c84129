import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../shared/domain-error.js';
import { BusController } from '../../../shared/http/api-controller.js';
import { ErrorResponseDto } from '../../../shared/http/error-response.js';
import { Public } from '../../../shared/http/route-access.js';
import { CompleteAuthorizationCommand } from '../application/complete-authorization/complete-authorization.command.js';
import { OpenConnectTicketCommand } from '../application/open-connect-ticket/open-connect-ticket.command.js';

const CONNECTIONS_PAGE = '/console/connections';

/**
 * The two routes a browser reaches without a credential: a connect link (its ticket is the
 * capability, used once) and the authorization server's callback (its state is the capability,
 * used once, bound to the principal that started the flow). Neither answer is cached, nor does
 * the callback's URL (its code) go out as a referrer.
 */
@Public()
@ApiTags('connections')
@Controller('api/v1')
export class OAuthCallbackController extends BusController {
  @Get('connect/:ticket')
  @ApiOperation({ summary: 'Open a connect link (from UPSTREAM_CONSENT_REQUIRED): redirects to the authorization server; single use, ten minutes' })
  @ApiParam({ name: 'ticket' })
  @ApiResponse({ status: 302, description: 'To the authorization server.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'CONNECT_TICKET_INVALID' })
  async open(@Param('ticket') ticket: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const authorizationUrl = await this.commands.execute(new OpenConnectTicketCommand(ticket));
    void reply.status(302).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('location', authorizationUrl);
  }

  @Get('oauth/callback')
  @ApiOperation({ summary: "The authorization server's redirect: the code is exchanged and the tokens stored; redirects to the console's connections" })
  @ApiQuery({ name: 'code', required: false })
  @ApiQuery({ name: 'state', required: true })
  @ApiResponse({ status: 302, description: 'To /console/connections?connected={source} (or the returnTo), or ?error={code}.' })
  @ApiResponse({ status: 400, type: ErrorResponseDto, description: 'OAUTH_STATE_INVALID: unknown, expired or used; nothing stored.' })
  async callback(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const callback = new URL(request.url, 'http://callback.invalid');
    let location: string;
    try {
      const done = await this.commands.execute(new CompleteAuthorizationCommand(callback));
      location = `${done.returnTo ?? CONNECTIONS_PAGE}${(done.returnTo ?? '').includes('?') ? '&' : '?'}connected=${encodeURIComponent(done.sourceName)}`;
    } catch (error) {
      // A state that names no flow is answered as an error here: there is no principal's page to send it to.
      if (!(error instanceof DomainError) || error.code === 'OAUTH_STATE_INVALID') throw error;
      location = `${CONNECTIONS_PAGE}?error=${encodeURIComponent(error.code)}`;
    }
    void reply.status(302).header('location', location);
  }
}

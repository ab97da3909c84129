import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OAuthConnections } from '../oauth-connections.js';
import { OpenConnectTicketCommand } from './open-connect-ticket.command.js';

@CommandHandler(OpenConnectTicketCommand)
export class OpenConnectTicketHandler implements ICommandHandler<OpenConnectTicketCommand, string> {
  constructor(@Inject(OAuthConnections) private readonly connections: OAuthConnections) {}

  execute({ ticket }: OpenConnectTicketCommand): Promise<string> {
    return this.connections.redeem(ticket);
  }
}

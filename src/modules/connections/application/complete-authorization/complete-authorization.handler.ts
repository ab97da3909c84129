import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OAuthConnections } from '../oauth-connections.js';
import { CompleteAuthorizationCommand } from './complete-authorization.command.js';

@CommandHandler(CompleteAuthorizationCommand)
export class CompleteAuthorizationHandler implements ICommandHandler<CompleteAuthorizationCommand, { sourceName: string; returnTo: string | null }> {
  constructor(@Inject(OAuthConnections) private readonly connections: OAuthConnections) {}

  execute({ callback }: CompleteAuthorizationCommand): Promise<{ sourceName: string; returnTo: string | null }> {
    return this.connections.complete(callback);
  }
}

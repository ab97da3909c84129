import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PerUserSources } from '../../domain/oauth-source.js';
import { OAuthConnections } from '../oauth-connections.js';
import { visiblePerUserSource } from '../visible-sources.js';
import { ConnectSourceCommand } from './connect-source.command.js';

@CommandHandler(ConnectSourceCommand)
export class ConnectSourceHandler implements ICommandHandler<ConnectSourceCommand, { authorizationUrl: string; expiresAt: string }> {
  constructor(
    @Inject(OAuthConnections) private readonly connections: OAuthConnections,
    @Inject(PerUserSources) private readonly sources: PerUserSources,
  ) {}

  async execute({ sourceName, principal, returnTo }: ConnectSourceCommand): Promise<{ authorizationUrl: string; expiresAt: string }> {
    await visiblePerUserSource(this.sources, principal, sourceName);
    const source = await this.connections.oauthSource(sourceName);
    const started = await this.connections.begin(principal, source, returnTo);
    return { authorizationUrl: started.authorizationUrl, expiresAt: started.expiresAt.toISOString() };
  }
}

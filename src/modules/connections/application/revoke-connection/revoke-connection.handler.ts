import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import { PerUserSources } from '../../domain/oauth-source.js';
import { OAuthConnections } from '../oauth-connections.js';
import { RevokeConnectionCommand } from './revoke-connection.command.js';

@CommandHandler(RevokeConnectionCommand)
export class RevokeConnectionHandler implements ICommandHandler<RevokeConnectionCommand, void> {
  constructor(
    @Inject(OAuthConnections) private readonly connections: OAuthConnections,
    @Inject(PerUserSources) private readonly sources: PerUserSources,
  ) {}

  async execute({ sourceName, principalId, actor }: RevokeConnectionCommand): Promise<void> {
    const source = await this.sources.byName(sourceName);
    const removed = source ? await this.connections.disconnect(principalId, source, actor) : false;
    if (!removed) throw new DomainError('not_found', 'CONNECTION_NOT_FOUND', `No connection to "${sourceName}" for this principal.`);
  }
}

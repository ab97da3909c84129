import { Inject, Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ApiKeyRepository } from '../../../access/domain/api-key.js';
import { ApiKeyChanged } from '../../../access/domain/api-key-changed.event.js';
import { OAuthConnections } from '../oauth-connections.js';

/** A revoked API key's principal keeps no connection: each is deleted and revoked upstream. */
@EventsHandler(ApiKeyChanged)
export class DropRevokedKeyConnectionsHandler implements IEventHandler<ApiKeyChanged> {
  private readonly logger = new Logger('DropRevokedKeyConnections');

  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(OAuthConnections) private readonly connections: OAuthConnections,
  ) {}

  async handle(event: ApiKeyChanged): Promise<void> {
    try {
      const key = await this.keys.findByHash(event.hash);
      if (!key || key.revokedAt === null) return;
      const dropped = await this.connections.dropPrincipal(key.id, 'toolplane');
      if (dropped > 0) this.logger.log(`dropped ${dropped} upstream connection(s) of revoked key ${key.name}`);
    } catch (error) {
      this.logger.warn(`dropping the connections of a revoked key failed: ${(error as Error).message}`);
    }
  }
}

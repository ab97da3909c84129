import { Inject, Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { SourceRemoved } from '../../../sources/domain/source-removed.event.js';
import { OAuthConnections } from '../oauth-connections.js';

/** A removed source keeps no connection: each of its callers' is deleted and revoked upstream (RFC 7009, where offered). */
@EventsHandler(SourceRemoved)
export class DropSourceConnectionsHandler implements IEventHandler<SourceRemoved> {
  private readonly logger = new Logger('DropSourceConnections');

  constructor(@Inject(OAuthConnections) private readonly connections: OAuthConnections) {}

  async handle({ source, actor }: SourceRemoved): Promise<void> {
    if (!source.upstreamAuth || source.upstreamAuth.mode === 'shared') return;
    try {
      const dropped = await this.connections.dropSource({ id: source.id, name: source.name, url: source.url, auth: source.upstreamAuth, discoveryPrincipalId: null, neverDiscovered: false }, actor);
      if (dropped > 0) this.logger.log(`dropped ${dropped} upstream connection(s) of removed source ${source.name}`);
    } catch (error) {
      this.logger.warn(`dropping the connections of removed source ${source.name} failed: ${(error as Error).message}`);
    }
  }
}

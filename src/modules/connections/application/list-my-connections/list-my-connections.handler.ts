import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { PerUserSources } from '../../domain/oauth-source.js';
import { ConnectionRepository } from '../../domain/ports.js';
import { connectionView, type ConnectionView } from '../connection-view.js';
import { visiblePerUserSources } from '../visible-sources.js';
import { ListMyConnectionsQuery } from './list-my-connections.query.js';

@QueryHandler(ListMyConnectionsQuery)
export class ListMyConnectionsHandler implements IQueryHandler<ListMyConnectionsQuery, { items: ConnectionView[] }> {
  constructor(
    @Inject(ConnectionRepository) private readonly connections: ConnectionRepository,
    @Inject(PerUserSources) private readonly sources: PerUserSources,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ principal }: ListMyConnectionsQuery): Promise<{ items: ConnectionView[] }> {
    const [visible, mine] = await Promise.all([visiblePerUserSources(this.sources, principal), this.connections.ofPrincipal(principal.id)]);
    const bySource = new Map(mine.map((connection) => [connection.sourceId, connection]));
    const now = this.clock.now();
    return { items: visible.map((source) => connectionView({ name: source.name, mode: source.auth.mode as ConnectionView['mode'] }, bySource.get(source.id), now)) };
  }
}

import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { PerUserSources } from '../../domain/oauth-source.js';
import { ConnectionRepository } from '../../domain/ports.js';
import { connectionStatus } from '../../domain/upstream-connection.js';
import type { SourceConnectionView } from '../connection-view.js';
import { ListSourceConnectionsQuery } from './list-source-connections.query.js';

@QueryHandler(ListSourceConnectionsQuery)
export class ListSourceConnectionsHandler implements IQueryHandler<ListSourceConnectionsQuery, { items: SourceConnectionView[] }> {
  constructor(
    @Inject(ConnectionRepository) private readonly connections: ConnectionRepository,
    @Inject(PerUserSources) private readonly sources: PerUserSources,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ sourceName }: ListSourceConnectionsQuery): Promise<{ items: SourceConnectionView[] }> {
    const source = await this.sources.byName(sourceName);
    if (!source) throw new DomainError('not_found', 'SOURCE_NOT_FOUND', `No per-user source named "${sourceName}".`);
    const now = this.clock.now();
    const connections = await this.connections.ofSource(source.id);
    return {
      items: connections.map((connection) => ({
        principalId: connection.principalId,
        principalName: connection.principalName,
        status: connectionStatus(connection, now),
        scopes: connection.scopes,
        expiresAt: connection.expiresAt?.toISOString() ?? null,
        connectedAt: connection.connectedAt.toISOString(),
      })),
    };
  }
}

import { RecordingAuditLog } from '../../audit/testing/recording-audit-log.js';
import { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { OAuthConnections } from '../application/oauth-connections.js';
import type { OAuthSource, PerUserSource } from '../domain/oauth-source.js';
import { FakeAuthorizationServers, InMemoryClients, InMemoryConnections, InMemoryFlows, InMemorySources, RecordingDiscoveryRefresh } from './in-memory-connections.js';

export const OAUTH_SOURCE: OAuthSource = { id: 's1', name: 'files', url: 'https://mcp.example/mcp', auth: { mode: 'oauth', oauth: {} }, discoveryPrincipalId: 'alice-id', neverDiscovered: true };
export const SECRET_SOURCE: PerUserSource = { id: 's2', name: 'mail', url: null, auth: { mode: 'user-secret' }, discoveryPrincipalId: null, neverDiscovered: false };

/** The connections module's ports in memory, and OAuthConnections over them (Toolplane at https://toolplane.example). */
export function connectionsFixture(sources: PerUserSource[] = [OAUTH_SOURCE, SECRET_SOURCE]) {
  const uow = new DirectUnitOfWork();
  const parts = {
    uow,
    servers: new FakeAuthorizationServers(),
    clients: new InMemoryClients(),
    connections: new InMemoryConnections(),
    flows: new InMemoryFlows(),
    sources: new InMemorySources(sources),
    discovery: new RecordingDiscoveryRefresh(),
    audit: new RecordingAuditLog(uow),
    clock: new FixedClock(),
  };
  const service = new OAuthConnections(parts.servers, parts.clients, parts.connections, parts.flows, parts.sources, parts.discovery, parts.audit, uow, parts.clock, {
    publicUrl: 'https://toolplane.example',
  });
  const callbackFor = (authorizationUrl: string) => new URL(`https://toolplane.example/api/v1/oauth/callback?code=c&state=${new URL(authorizationUrl).searchParams.get('state')}`);
  /** Connects `principal` to `source` as a browser would (begin, consent, callback). */
  const connect = async (principal: { id: string; name: string }, source: OAuthSource = OAUTH_SOURCE) => service.complete(callbackFor((await service.begin(principal, source, null)).authorizationUrl));
  return { ...parts, service, callbackFor, connect };
}

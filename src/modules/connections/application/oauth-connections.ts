import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { DomainError } from '../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../shared/unit-of-work.js';
import { AuditLog } from '../../audit/domain/audit-event.js';
import { AuthorizationServers, RegisteredClients, type RegisteredClient } from '../domain/authorization-server.js';
import { capabilityHash, FLOW_TTL_MS, isCapabilityShaped, newCapability, pkcePair } from '../domain/capability.js';
import { clientSettingsHash, DiscoveryRefresh, isOAuthSource, PerUserSources, type OAuthSource, type PerUserSource } from '../domain/oauth-source.js';
import { ConnectionRepository, PendingFlows } from '../domain/ports.js';
import { grantedConnection, needsRefresh, type UpstreamConnection } from '../domain/upstream-connection.js';

/** Who a flow or connection belongs to. */
export interface ConnectingPrincipal {
  id: string;
  name: string;
}

/** Tickets of one (principal, source) kept at most: a caller refused again and again does not fill the table. */
const MAX_TICKETS = 20;

/**
 * Each principal's OAuth connections to upstreams: starting an authorization (a state bound to the
 * principal, single use, ten minutes, stored hashed with its PKCE verifier sealed), the callback
 * that turns its code into tokens (sealed per principal and source), the credential of a call
 * (refreshed within a minute of its end, or after the upstream refused it; one refresh at a time
 * per connection, across processes by a row lock), and disconnection (revoked upstream when the
 * authorization server offers it).
 */
@Injectable()
export class OAuthConnections {
  private readonly logger = new Logger('OAuthConnections');
  private readonly refreshes = new Map<string, Promise<UpstreamConnection | undefined>>();
  private readonly preparing = new Map<string, Promise<RegisteredClient>>();

  constructor(
    @Inject(AuthorizationServers) private readonly servers: AuthorizationServers,
    @Inject(RegisteredClients) private readonly clients: RegisteredClients,
    @Inject(ConnectionRepository) private readonly connections: ConnectionRepository,
    @Inject(PendingFlows) private readonly flows: PendingFlows,
    @Inject(PerUserSources) private readonly sources: PerUserSources,
    @Inject(DiscoveryRefresh) private readonly discovery: DiscoveryRefresh,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'publicUrl'>,
  ) {}

  get redirectUri(): string {
    return `${this.config.publicUrl}/api/v1/oauth/callback`;
  }

  /** The OAuth source of this name, or SOURCE_NOT_FOUND / SOURCE_NOT_OAUTH. */
  async oauthSource(name: string): Promise<OAuthSource> {
    const source = await this.sources.byName(name);
    if (!source) throw new DomainError('not_found', 'SOURCE_NOT_FOUND', `No per-user source named "${name}".`);
    if (!isOAuthSource(source)) throw new DomainError('conflict', 'SOURCE_NOT_OAUTH', `Source "${name}" does not authenticate its callers with OAuth (its upstreamAuth.mode is ${source.auth.mode}).`);
    return source;
  }

  /** Starts an authorization for `principal`: the URL to send its browser to. */
  async begin(principal: ConnectingPrincipal, source: OAuthSource, returnTo: string | null): Promise<{ authorizationUrl: string; expiresAt: Date }> {
    const client = await this.client(source);
    const now = this.clock.now();
    const state = newCapability();
    const pkce = pkcePair();
    const expiresAt = new Date(now.getTime() + FLOW_TTL_MS);
    await this.flows.deleteExpired(now);
    await this.flows.insert({ hash: capabilityHash(state), kind: 'state', principalId: principal.id, principalName: principal.name, sourceId: source.id, codeVerifier: pkce.verifier, returnTo, createdAt: now, expiresAt });
    const scopes = source.auth.oauth.scopes ?? client.defaultScopes;
    return { authorizationUrl: this.servers.authorizationUrl(client, { state, codeChallenge: pkce.challenge, scopes }).href, expiresAt };
  }

  /** A link that starts an authorization for `principal` when opened (no credential needed: the ticket is one, used once, ten minutes). */
  async ticket(principal: ConnectingPrincipal, source: PerUserSource): Promise<string> {
    const now = this.clock.now();
    const ticket = newCapability();
    await this.flows.deleteExpired(now);
    await this.flows.insert({ hash: capabilityHash(ticket), kind: 'ticket', principalId: principal.id, principalName: principal.name, sourceId: source.id, returnTo: null, createdAt: now, expiresAt: new Date(now.getTime() + FLOW_TTL_MS) });
    await this.flows.trimTickets(principal.id, source.id, MAX_TICKETS);
    return `${this.config.publicUrl}/api/v1/connect/${ticket}`;
  }

  /** Opens a ticket (once): the authorization URL of a new flow for the ticket's principal. */
  async redeem(ticket: string): Promise<string> {
    const flow = isCapabilityShaped(ticket) ? await this.flows.take(capabilityHash(ticket), 'ticket', this.clock.now()) : undefined;
    if (!flow) throw new DomainError('not_found', 'CONNECT_TICKET_INVALID', 'This connect link is unknown, expired or already used: ask for a new one.');
    const source = await this.sources.byId(flow.sourceId);
    if (!source || !isOAuthSource(source)) throw new DomainError('not_found', 'SOURCE_NOT_FOUND', 'The source of this connect link no longer exists.');
    const { authorizationUrl } = await this.begin({ id: flow.principalId, name: flow.principalName }, source, flow.returnTo);
    return authorizationUrl;
  }

  /** The authorization server sent the browser back: the flow of its state is taken (once), its code exchanged and the tokens stored. */
  async complete(callback: URL): Promise<{ sourceName: string; returnTo: string | null }> {
    const state = callback.searchParams.get('state');
    const flow = isCapabilityShaped(state) ? await this.flows.take(capabilityHash(state), 'state', this.clock.now()) : undefined;
    if (!flow || !state || flow.codeVerifier === undefined) throw new DomainError('invalid', 'OAUTH_STATE_INVALID', 'This authorization is unknown, expired or already used: start connecting again.');
    const source = await this.sources.byId(flow.sourceId);
    if (!source || !isOAuthSource(source)) throw new DomainError('not_found', 'SOURCE_NOT_FOUND', 'The source of this authorization no longer exists.');
    const denied = callback.searchParams.get('error');
    if (denied !== null) {
      throw new DomainError('forbidden', 'OAUTH_AUTHORIZATION_DENIED', `The authorization server did not authorize the connection: ${denied.slice(0, 100)}.`);
    }
    const client = await this.clients.find(source.id);
    if (!client || client.settingsHash !== clientSettingsHash(source)) throw new DomainError('conflict', 'OAUTH_CLIENT_CHANGED', "The source's OAuth settings changed during the authorization: start connecting again.");
    const grant = await this.servers.exchangeCode(client, callback, state, flow.codeVerifier).catch((error: unknown) => {
      throw new DomainError('upstream', 'OAUTH_GRANT_FAILED', `Connecting to ${source.name} failed: ${(error as Error).message}`);
    });
    const now = this.clock.now();
    const connection = grantedConnection(grant, { principalId: flow.principalId, principalName: flow.principalName, sourceId: source.id, connectedAt: now }, now);
    await this.uow.run(async () => {
      await this.connections.save(connection);
      await this.audit.record({
        actor: flow.principalId,
        action: 'connection.granted',
        targetType: 'source',
        targetId: source.id,
        targetName: source.name,
        details: { principalId: flow.principalId, principalName: flow.principalName, scopes: connection.scopes, issuer: client.issuer },
      });
    });
    if (source.discoveryPrincipalId === flow.principalId && source.neverDiscovered) {
      this.discovery.refresh(source.id, flow.principalId).catch((error: unknown) => this.logger.warn(`refreshing ${source.name} after its discovery principal connected failed: ${(error as Error).message}`));
    }
    return { sourceName: source.name, returnTo: flow.returnTo };
  }

  /**
   * The principal's usable connection to `source`: refreshed first when its access token ends within
   * a minute, or when `rejected` (the access token the upstream just refused) is still the stored
   * one. Undefined: none, or its refresh failed (consent is needed again).
   */
  async credential(principalId: string, source: OAuthSource, rejected?: string): Promise<UpstreamConnection | undefined> {
    const connection = await this.connections.find(principalId, source.id);
    if (!connection || connection.lastError !== null) return undefined;
    if (!this.stale(connection, rejected)) return connection;
    const key = `${principalId}\u0000${source.id}`;
    let refresh = this.refreshes.get(key);
    if (!refresh) {
      refresh = this.refresh(principalId, source, rejected).finally(() => this.refreshes.delete(key));
      this.refreshes.set(key, refresh);
    }
    return refresh;
  }

  /** Disconnects: the connection deleted (audited), then its tokens revoked upstream when the server offers it. */
  async disconnect(principalId: string, source: PerUserSource, actor: string): Promise<boolean> {
    const gone = await this.uow.run(async () => {
      const deleted = await this.connections.delete(principalId, source.id);
      if (deleted) await this.recordRevoked(deleted, source, actor);
      return deleted;
    });
    if (!gone) return false;
    await this.revokeUpstream(gone, source);
    return true;
  }

  /** Every connection, authorization under way and ticket of a principal whose credential ended (its key revoked). */
  async dropPrincipal(principalId: string, actor: string): Promise<number> {
    const gone = await this.uow.run(async () => {
      await this.flows.deleteOfPrincipal(principalId);
      const deleted = await this.connections.deleteOfPrincipal(principalId);
      for (const connection of deleted) {
        const source = await this.sources.byId(connection.sourceId);
        if (source) await this.recordRevoked(connection, source, actor);
      }
      return deleted;
    });
    for (const connection of gone) {
      const source = await this.sources.byId(connection.sourceId);
      if (source) await this.revokeUpstream(connection, source);
    }
    return gone.length;
  }

  /** Every principal's connection to a source that was removed: deleted (audited), then revoked upstream when the server offers it. */
  async dropSource(source: PerUserSource, actor: string): Promise<number> {
    const gone = await this.uow.run(async () => {
      const deleted = await this.connections.deleteOfSource(source.id);
      for (const connection of deleted) await this.recordRevoked(connection, source, actor);
      return deleted;
    });
    for (const connection of gone) await this.revokeUpstream(connection, source);
    return gone.length;
  }

  private stale(connection: UpstreamConnection, rejected: string | undefined): boolean {
    return needsRefresh(connection, this.clock.now()) || (rejected !== undefined && connection.tokens.accessToken === rejected);
  }

  private async refresh(principalId: string, source: OAuthSource, rejected: string | undefined): Promise<UpstreamConnection | undefined> {
    return this.uow.run(async () => {
      const current = await this.connections.findForUpdate(principalId, source.id);
      if (!current || current.lastError !== null) return undefined;
      // Another process may have refreshed it while this one waited for the lock.
      if (!this.stale(current, rejected)) return current;
      const now = this.clock.now();
      const refreshToken = current.tokens.refreshToken;
      const client = await this.clients.find(source.id);
      const failure = !refreshToken ? 'no refresh token was issued' : !client ? 'the OAuth client is gone' : undefined;
      if (failure === undefined && client && refreshToken) {
        try {
          const grant = await this.servers.refresh(client, refreshToken);
          const next = grantedConnection(grant, { ...current, previousRefreshToken: refreshToken, previousScopes: current.scopes }, now);
          await this.connections.save(next);
          return next;
        } catch (error) {
          return this.refreshFailed(current, source, (error as Error).message);
        }
      }
      // No way to refresh: a token that has not ended yet is still used; after it ends, consent is needed again.
      if (rejected === undefined && current.expiresAt !== null && current.expiresAt.getTime() > now.getTime()) return current;
      return this.refreshFailed(current, source, failure ?? 'refresh impossible');
    });
  }

  private async refreshFailed(current: UpstreamConnection, source: PerUserSource, reason: string): Promise<undefined> {
    this.logger.warn(`refreshing the connection of ${current.principalName} to ${source.name} failed: ${reason}`);
    await this.connections.recordFailure(current.principalId, current.sourceId, reason);
    await this.audit.record({
      actor: 'toolplane',
      action: 'connection.refresh_failed',
      targetType: 'source',
      targetId: source.id,
      targetName: source.name,
      details: { principalId: current.principalId, principalName: current.principalName, reason: reason.slice(0, 500) },
    });
    return undefined;
  }

  private recordRevoked(connection: UpstreamConnection, source: PerUserSource, actor: string): Promise<void> {
    return this.audit.record({
      actor,
      action: 'connection.revoked',
      targetType: 'source',
      targetId: source.id,
      targetName: source.name,
      details: { principalId: connection.principalId, principalName: connection.principalName, by: actor },
    });
  }

  /** Best effort: the connection is gone here whatever the authorization server says. */
  private async revokeUpstream(connection: UpstreamConnection, source: PerUserSource): Promise<void> {
    if (!isOAuthSource(source)) return;
    try {
      const client = await this.clients.find(source.id);
      if (!client) return;
      if (connection.tokens.refreshToken) await this.servers.revoke(client, connection.tokens.refreshToken, 'refresh_token');
      await this.servers.revoke(client, connection.tokens.accessToken, 'access_token');
    } catch (error) {
      this.logger.warn(`revoking the tokens of ${connection.principalName} at ${source.name}'s authorization server failed: ${(error as Error).message}`);
    }
  }

  /** Toolplane's client at the source's authorization server: the stored one while it fits the source's settings, else a new one. */
  private async client(source: OAuthSource): Promise<RegisteredClient> {
    const hash = clientSettingsHash(source);
    const known = await this.clients.find(source.id);
    if (known && known.settingsHash === hash && known.redirectUri === this.redirectUri) return known;
    let preparing = this.preparing.get(source.id);
    if (!preparing) {
      preparing = (async () => {
        const prepared = await this.servers.prepare(source, this.redirectUri, hash).catch((error: unknown) => {
          throw new DomainError('upstream', 'OAUTH_DISCOVERY_FAILED', `Toolplane could not prepare OAuth for ${source.name}: ${(error as Error).message}`);
        });
        await this.clients.save(prepared);
        return prepared;
      })().finally(() => this.preparing.delete(source.id));
      this.preparing.set(source.id, preparing);
    }
    return preparing;
  }
}

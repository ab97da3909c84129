import { AuthorizationServers, RegisteredClients, type RegisteredClient } from '../domain/authorization-server.js';
import { DiscoveryRefresh, PerUserSources, type OAuthSource, type PerUserSource } from '../domain/oauth-source.js';
import { ConnectionRepository, PendingFlows, type PendingFlow } from '../domain/ports.js';
import type { GrantedTokens, UpstreamConnection } from '../domain/upstream-connection.js';

const key = (principalId: string, sourceId: string) => `${principalId}\u0000${sourceId}`;

export class InMemoryConnections extends ConnectionRepository {
  readonly rows = new Map<string, UpstreamConnection>();
  async find(principalId: string, sourceId: string) {
    const found = this.rows.get(key(principalId, sourceId));
    return found && structuredClone(found);
  }
  findForUpdate(principalId: string, sourceId: string) {
    return this.find(principalId, sourceId);
  }
  async save(connection: UpstreamConnection) {
    this.rows.set(key(connection.principalId, connection.sourceId), structuredClone(connection));
  }
  async recordFailure(principalId: string, sourceId: string, error: string) {
    const found = this.rows.get(key(principalId, sourceId));
    if (found) found.lastError = error;
  }
  async delete(principalId: string, sourceId: string) {
    const found = this.rows.get(key(principalId, sourceId));
    this.rows.delete(key(principalId, sourceId));
    return found;
  }
  async deleteOfPrincipal(principalId: string) {
    const gone = [...this.rows.values()].filter((row) => row.principalId === principalId);
    for (const row of gone) this.rows.delete(key(row.principalId, row.sourceId));
    return gone;
  }
  async deleteOfSource(sourceId: string) {
    const gone = [...this.rows.values()].filter((row) => row.sourceId === sourceId);
    for (const row of gone) this.rows.delete(key(row.principalId, row.sourceId));
    return gone;
  }
  async ofPrincipal(principalId: string) {
    return [...this.rows.values()].filter((row) => row.principalId === principalId);
  }
  async ofSource(sourceId: string) {
    return [...this.rows.values()].filter((row) => row.sourceId === sourceId);
  }
}

export class InMemoryFlows extends PendingFlows {
  readonly rows = new Map<string, PendingFlow>();
  async insert(flow: PendingFlow) {
    this.rows.set(flow.hash, { ...flow });
  }
  async take(hash: string, kind: PendingFlow['kind'], now: Date) {
    const flow = this.rows.get(hash);
    if (!flow || flow.kind !== kind) return undefined;
    this.rows.delete(hash);
    return flow.expiresAt.getTime() > now.getTime() ? flow : undefined;
  }
  async deleteExpired(now: Date) {
    for (const [hash, flow] of this.rows) if (flow.expiresAt.getTime() <= now.getTime()) this.rows.delete(hash);
  }
  async deleteOfPrincipal(principalId: string) {
    for (const [hash, flow] of this.rows) if (flow.principalId === principalId) this.rows.delete(hash);
  }
  async trimTickets(principalId: string, sourceId: string, keep: number) {
    const tickets = [...this.rows.values()].filter((flow) => flow.kind === 'ticket' && flow.principalId === principalId && flow.sourceId === sourceId);
    tickets.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    for (const flow of tickets.slice(keep)) this.rows.delete(flow.hash);
  }
}

export class InMemoryClients extends RegisteredClients {
  readonly rows = new Map<string, RegisteredClient>();
  async find(sourceId: string) {
    return this.rows.get(sourceId);
  }
  async save(client: RegisteredClient) {
    this.rows.set(client.sourceId, client);
  }
}

export class InMemorySources extends PerUserSources {
  constructor(readonly sources: PerUserSource[]) {
    super();
  }
  async byName(name: string) {
    return this.sources.find((source) => source.name === name);
  }
  async byId(id: string) {
    return this.sources.find((source) => source.id === id);
  }
  async all() {
    return this.sources.map((source) => ({ ...source, toolNames: [] }));
  }
}

export class RecordingDiscoveryRefresh extends DiscoveryRefresh {
  readonly refreshed: string[] = [];
  async refresh(sourceId: string) {
    this.refreshed.push(sourceId);
  }
}

/** An authorization server in memory: codes and tokens it made up, what it was asked, and failures on demand. */
export class FakeAuthorizationServers extends AuthorizationServers {
  prepared = 0;
  refreshes: string[] = [];
  revoked: { token: string; hint: string }[] = [];
  failRefresh = false;
  failRevoke = false;
  revocation = true;
  expiresIn: number | undefined = 3600;
  private issued = 0;

  async prepare(source: OAuthSource, redirectUri: string, settingsHash: string): Promise<RegisteredClient> {
    this.prepared += 1;
    return {
      sourceId: source.id,
      issuer: 'https://as.example',
      metadata: { authorization_endpoint: 'https://as.example/authorize' },
      resource: source.url,
      clientId: 'client-1',
      clientSecret: 'client-secret',
      authMethod: 'client_secret_basic',
      registration: 'dynamic',
      redirectUri,
      settingsHash,
      defaultScopes: ['read'],
      createdAt: new Date(0),
    };
  }
  authorizationUrl(client: RegisteredClient, request: { state: string; codeChallenge: string; scopes: string[] }): URL {
    const url = new URL(client.metadata.authorization_endpoint as string);
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('scope', request.scopes.join(' '));
    return url;
  }
  async exchangeCode(_client: RegisteredClient, callback: URL, state: string): Promise<GrantedTokens> {
    if (callback.searchParams.get('state') !== state) throw new Error('state mismatch');
    return this.grant();
  }
  async refresh(_client: RegisteredClient, refreshToken: string): Promise<GrantedTokens> {
    this.refreshes.push(refreshToken);
    if (this.failRefresh) throw new Error('invalid_grant: revoked');
    return this.grant();
  }
  async revoke(_client: RegisteredClient, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean> {
    if (this.failRevoke) throw new Error('unreachable');
    if (!this.revocation) return false;
    this.revoked.push({ token, hint });
    return true;
  }
  private grant(): GrantedTokens {
    this.issued += 1;
    return { accessToken: `access-${this.issued}`, refreshToken: `refresh-${this.issued}`, tokenType: 'Bearer', ...(this.expiresIn !== undefined ? { expiresInSeconds: this.expiresIn } : {}), scopes: ['read'] };
  }
}

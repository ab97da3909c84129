import type { SecretCipher, SealedValue } from '../../../shared/crypto/secret-cipher.js';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import type { RegisteredClient } from '../domain/authorization-server.js';
import { RegisteredClients } from '../domain/authorization-server.js';
import { ConnectionRepository, PendingFlows, type PendingFlow } from '../domain/ports.js';
import type { TokenSet, UpstreamConnection } from '../domain/upstream-connection.js';

/** The tokens of one (principal, source) are sealed with both bound in: a row moved to another cannot be opened. */
export const connectionContext = (principalId: string, sourceId: string) => `oauth-connection:${principalId}:${sourceId}`;

interface ConnectionRow {
  principal_id: string;
  principal_name: string;
  source_id: string;
  tokens_sealed: SealedValue;
  scopes: string[];
  expires_at: Date | null;
  connected_at: Date;
  refreshed_at: Date | null;
  last_error: string | null;
}

export class SqlConnectionRepository extends ConnectionRepository {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params) as Promise<T[]>;
  }

  private fromRow = (row: ConnectionRow): UpstreamConnection => ({
    principalId: row.principal_id,
    principalName: row.principal_name,
    sourceId: row.source_id,
    tokens: this.cipher.openJson<TokenSet>(row.tokens_sealed, connectionContext(row.principal_id, row.source_id)),
    scopes: row.scopes,
    expiresAt: row.expires_at,
    connectedAt: row.connected_at,
    refreshedAt: row.refreshed_at,
    lastError: row.last_error,
  });

  async find(principalId: string, sourceId: string): Promise<UpstreamConnection | undefined> {
    const rows = await this.query<ConnectionRow>(`SELECT * FROM upstream_connections WHERE principal_id = $1 AND source_id = $2`, [principalId, sourceId]);
    return rows[0] && this.fromRow(rows[0]);
  }

  async findForUpdate(principalId: string, sourceId: string): Promise<UpstreamConnection | undefined> {
    const rows = await this.query<ConnectionRow>(`SELECT * FROM upstream_connections WHERE principal_id = $1 AND source_id = $2 FOR UPDATE`, [principalId, sourceId]);
    return rows[0] && this.fromRow(rows[0]);
  }

  async save(connection: UpstreamConnection): Promise<void> {
    const sealed = this.cipher.sealJson(connection.tokens, connectionContext(connection.principalId, connection.sourceId));
    await this.query(
      `INSERT INTO upstream_connections (principal_id, source_id, principal_name, tokens_sealed, scopes, expires_at, connected_at, refreshed_at, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (principal_id, source_id) DO UPDATE SET principal_name = EXCLUDED.principal_name, tokens_sealed = EXCLUDED.tokens_sealed,
         scopes = EXCLUDED.scopes, expires_at = EXCLUDED.expires_at, connected_at = EXCLUDED.connected_at, refreshed_at = EXCLUDED.refreshed_at, last_error = EXCLUDED.last_error`,
      [
        connection.principalId,
        connection.sourceId,
        connection.principalName,
        JSON.stringify(sealed),
        JSON.stringify(connection.scopes),
        connection.expiresAt,
        connection.connectedAt,
        connection.refreshedAt,
        connection.lastError,
      ],
    );
  }

  async recordFailure(principalId: string, sourceId: string, error: string): Promise<void> {
    await this.query(`UPDATE upstream_connections SET last_error = $3 WHERE principal_id = $1 AND source_id = $2`, [principalId, sourceId, error.slice(0, 1000)]);
  }

  async delete(principalId: string, sourceId: string): Promise<UpstreamConnection | undefined> {
    const rows = await this.query<ConnectionRow>(`WITH gone AS (DELETE FROM upstream_connections WHERE principal_id = $1 AND source_id = $2 RETURNING *) SELECT * FROM gone`, [principalId, sourceId]);
    return rows[0] && this.fromRow(rows[0]);
  }

  async deleteOfPrincipal(principalId: string): Promise<UpstreamConnection[]> {
    const rows = await this.query<ConnectionRow>(`WITH gone AS (DELETE FROM upstream_connections WHERE principal_id = $1 RETURNING *) SELECT * FROM gone`, [principalId]);
    return rows.map(this.fromRow);
  }

  async deleteOfSource(sourceId: string): Promise<UpstreamConnection[]> {
    const rows = await this.query<ConnectionRow>(`WITH gone AS (DELETE FROM upstream_connections WHERE source_id = $1 RETURNING *) SELECT * FROM gone`, [sourceId]);
    return rows.map(this.fromRow);
  }

  async ofPrincipal(principalId: string): Promise<UpstreamConnection[]> {
    return (await this.query<ConnectionRow>(`SELECT * FROM upstream_connections WHERE principal_id = $1`, [principalId])).map(this.fromRow);
  }

  async ofSource(sourceId: string): Promise<UpstreamConnection[]> {
    return (await this.query<ConnectionRow>(`SELECT * FROM upstream_connections WHERE source_id = $1 ORDER BY principal_name, principal_id`, [sourceId])).map(this.fromRow);
  }
}

interface FlowRow {
  state_hash: string;
  kind: 'state' | 'ticket';
  principal_id: string;
  principal_name: string;
  source_id: string;
  code_verifier_sealed: SealedValue | null;
  return_to: string | null;
  created_at: Date;
  expires_at: Date;
}

const flowContext = (hash: string) => `oauth-flow:${hash}`;

export class SqlPendingFlows extends PendingFlows {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async insert(flow: PendingFlow): Promise<void> {
    const verifier = flow.codeVerifier === undefined ? null : JSON.stringify(this.cipher.seal(flow.codeVerifier, flowContext(flow.hash)));
    await this.uow
      .manager()
      .query(
        `INSERT INTO oauth_flows (state_hash, kind, principal_id, principal_name, source_id, code_verifier_sealed, return_to, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [flow.hash, flow.kind, flow.principalId, flow.principalName, flow.sourceId, verifier, flow.returnTo, flow.createdAt, flow.expiresAt],
      );
  }

  async take(hash: string, kind: PendingFlow['kind'], now: Date): Promise<PendingFlow | undefined> {
    const rows = (await this.uow.manager().query(`WITH taken AS (DELETE FROM oauth_flows WHERE state_hash = $1 AND kind = $2 RETURNING *) SELECT * FROM taken`, [hash, kind])) as FlowRow[];
    const row = rows[0];
    if (!row || row.expires_at.getTime() <= now.getTime()) return undefined;
    return {
      hash: row.state_hash,
      kind: row.kind,
      principalId: row.principal_id,
      principalName: row.principal_name,
      sourceId: row.source_id,
      ...(row.code_verifier_sealed ? { codeVerifier: this.cipher.open(row.code_verifier_sealed, flowContext(row.state_hash)) } : {}),
      returnTo: row.return_to,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.uow.manager().query(`DELETE FROM oauth_flows WHERE expires_at <= $1`, [now]);
  }

  async deleteOfPrincipal(principalId: string): Promise<void> {
    await this.uow.manager().query(`DELETE FROM oauth_flows WHERE principal_id = $1`, [principalId]);
  }

  async trimTickets(principalId: string, sourceId: string, keep: number): Promise<void> {
    await this.uow.manager().query(
      `DELETE FROM oauth_flows WHERE state_hash IN (
         SELECT state_hash FROM oauth_flows WHERE kind = 'ticket' AND principal_id = $1 AND source_id = $2 ORDER BY created_at DESC OFFSET $3)`,
      [principalId, sourceId, keep],
    );
  }
}

interface ClientRow {
  source_id: string;
  issuer: string;
  metadata: Record<string, unknown> & { toolplane?: { settingsHash: string; defaultScopes: string[] } };
  resource: string;
  client_id: string;
  client_secret_sealed: SealedValue | null;
  token_endpoint_auth_method: RegisteredClient['authMethod'];
  registration: RegisteredClient['registration'];
  redirect_uri: string;
  created_at: Date;
}

const clientContext = (sourceId: string) => `oauth-client:${sourceId}`;

/**
 * A dynamically registered client's secret is sealed (the source id bound in); a pre-registered
 * one's is never stored here: it stays a `${secret:NAME}` reference, read again when the client is.
 */
export class SqlRegisteredClients extends RegisteredClients {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
    private readonly preRegisteredSecret: (sourceId: string) => Promise<string | undefined>,
  ) {
    super();
  }

  async find(sourceId: string): Promise<RegisteredClient | undefined> {
    const rows = (await this.uow.manager().query(`SELECT * FROM oauth_clients WHERE source_id = $1`, [sourceId])) as ClientRow[];
    const row = rows[0];
    if (!row) return undefined;
    const { toolplane, ...metadata } = row.metadata;
    const clientSecret = row.client_secret_sealed
      ? this.cipher.open(row.client_secret_sealed, clientContext(sourceId))
      : row.registration === 'pre-registered' && row.token_endpoint_auth_method !== 'none'
        ? await this.preRegisteredSecret(sourceId)
        : undefined;
    return {
      sourceId,
      issuer: row.issuer,
      metadata,
      resource: row.resource,
      clientId: row.client_id,
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      authMethod: row.token_endpoint_auth_method,
      registration: row.registration,
      redirectUri: row.redirect_uri,
      settingsHash: toolplane?.settingsHash ?? '',
      defaultScopes: toolplane?.defaultScopes ?? [],
      createdAt: row.created_at,
    };
  }

  async save(client: RegisteredClient): Promise<void> {
    const sealed = client.registration === 'dynamic' && client.clientSecret !== undefined ? JSON.stringify(this.cipher.seal(client.clientSecret, clientContext(client.sourceId))) : null;
    const metadata = { ...client.metadata, toolplane: { settingsHash: client.settingsHash, defaultScopes: client.defaultScopes } };
    await this.uow.manager().query(
      `INSERT INTO oauth_clients (source_id, issuer, metadata, resource, client_id, client_secret_sealed, token_endpoint_auth_method, registration, redirect_uri, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (source_id) DO UPDATE SET issuer = EXCLUDED.issuer, metadata = EXCLUDED.metadata, resource = EXCLUDED.resource, client_id = EXCLUDED.client_id,
         client_secret_sealed = EXCLUDED.client_secret_sealed, token_endpoint_auth_method = EXCLUDED.token_endpoint_auth_method,
         registration = EXCLUDED.registration, redirect_uri = EXCLUDED.redirect_uri, created_at = EXCLUDED.created_at`,
      [client.sourceId, client.issuer, JSON.stringify(metadata), client.resource, client.clientId, sealed, client.authMethod, client.registration, client.redirectUri, client.createdAt],
    );
  }
}

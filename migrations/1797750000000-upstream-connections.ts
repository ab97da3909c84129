import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-user OAuth connections to upstreams: the client Toolplane is at each source's authorization
 * server, the authorizations under way (by the SHA-256 of their state or ticket, never the value),
 * and each principal's tokens for each source, sealed with the encryption key.
 */
export class UpstreamConnections1797750000000 implements MigrationInterface {
  name = 'UpstreamConnections1797750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE oauth_clients (
      source_id uuid PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
      issuer text NOT NULL,
      metadata jsonb NOT NULL,
      resource text NOT NULL,
      client_id text NOT NULL,
      client_secret_sealed jsonb,
      token_endpoint_auth_method text NOT NULL,
      registration text NOT NULL CHECK (registration IN ('pre-registered', 'dynamic', 'metadata-document')),
      redirect_uri text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE oauth_flows (
      state_hash text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('state', 'ticket')),
      principal_id text NOT NULL,
      principal_name text NOT NULL,
      source_id uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      code_verifier_sealed jsonb,
      return_to text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX oauth_flows_expiry ON oauth_flows (expires_at)`);
    await q.query(`CREATE TABLE upstream_connections (
      principal_id text NOT NULL,
      source_id uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      principal_name text NOT NULL,
      tokens_sealed jsonb NOT NULL,
      scopes jsonb NOT NULL,
      expires_at timestamptz,
      connected_at timestamptz NOT NULL,
      refreshed_at timestamptz,
      last_error text,
      PRIMARY KEY (principal_id, source_id)
    )`);
    await q.query(`CREATE INDEX upstream_connections_source ON upstream_connections (source_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE upstream_connections`);
    await q.query(`DROP TABLE oauth_flows`);
    await q.query(`DROP TABLE oauth_clients`);
  }
}

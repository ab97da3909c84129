import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { adminQuery, migratedDataSource, testServerUrl, withDatabase } from '../../../../test/helpers/test-database.js';
import { rememberCallerToken } from '../../../shared/principal/caller-token.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { SqlPrincipalConnections } from './sql-principal-connections.js';

/**
 * SqlPrincipalConnections on PostgreSQL, over the per-user credential tables as their migrations
 * make them (`sources.upstream_auth`, `user_secrets`, `upstream_connections`); the sealed columns
 * hold placeholders, which this query never reads.
 */
describe('SqlPrincipalConnections', () => {
  const dbName = `tp_conn_${randomBytes(4).toString('hex')}`;
  let db: DataSource;
  const ids = { shared: randomUUID(), oauth: randomUUID(), named: randomUUID(), unnamed: randomUUID(), exchange: randomUUID(), removed: randomUUID() };
  const all = Object.values(ids);
  const alice: Principal = { id: 'key-alice', name: 'alice', kind: 'api-key', roles: ['agent'] };
  const bob: Principal = { id: 'key-bob', name: 'bob', kind: 'api-key', roles: ['agent'] };

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    db = await migratedDataSource(withDatabase(testServerUrl(), dbName));
    const auths: [string, string, unknown, boolean][] = [
      [ids.shared, 'shared', null, false],
      [ids.oauth, 'crm', { mode: 'oauth', oauth: {} }, false],
      [ids.named, 'github', { mode: 'user-secret', userSecrets: ['GH_TOKEN', 'GH_ORG'] }, false],
      [ids.unnamed, 'jira', { mode: 'user-secret' }, false],
      [ids.exchange, 'erp', { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'https://sso.example/token', audience: 'erp', clientId: 'tp' } }, false],
      [ids.removed, 'old', { mode: 'oauth', oauth: {} }, true],
    ];
    for (const [id, name, auth, deleted] of auths) {
      await db.query(
        `INSERT INTO sources (id, name, transport, lifecycle, read_only, timeout_ms, max_concurrency, refresh_interval_seconds, circuit_breaker, enabled, created_at, updated_at, deleted_at, upstream_auth)
         VALUES ($1, $2, 'streamable-http', 'singleton', false, 1000, 1, 0, '{"failureThreshold":5,"resetTimeoutMs":30000}', true, now(), now(), CASE WHEN $3 THEN now() END, $4)`,
        [id, name, deleted, auth === null ? null : JSON.stringify(auth)],
      );
    }
    await db.query(`INSERT INTO upstream_connections (principal_id, source_id, principal_name, tokens_sealed, scopes, connected_at) VALUES ($1, $2, 'alice', '{}', '[]', now())`, [alice.id, ids.oauth]);
    await db.query(`INSERT INTO user_secrets (principal_id, name, sealed, created_at, updated_at) VALUES ($1, 'GH_TOKEN', '{}', now(), now())`, [alice.id]);
  });

  afterAll(async () => {
    await db?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('names every per-user source a principal lacks a credential for, in one query, and never a shared or removed one', async () => {
    let queries = 0;
    const counted = new Proxy(db, { get: (target, key) => (key === 'query' ? (...args: Parameters<DataSource['query']>) => (queries++, target.query(...args)) : Reflect.get(target, key)) });
    const connections = new SqlPrincipalConnections(counted, 'https://tp.example/');
    const forBob = await connections.missingFor(bob, all);
    expect(queries).toBe(1);
    expect(Object.fromEntries(forBob)).toEqual({
      [ids.oauth]: { required: true, source: 'crm', connectUrl: 'https://tp.example/console/connections' },
      [ids.named]: { required: true, source: 'github', hint: 'set your own GH_TOKEN (PUT /api/v1/me/secrets/GH_TOKEN) and your own GH_ORG (PUT /api/v1/me/secrets/GH_ORG)' },
      [ids.unnamed]: { required: true, source: 'jira', hint: expect.stringContaining('PUT /api/v1/me/secrets/') },
      [ids.exchange]: { required: true, source: 'erp', hint: expect.stringContaining('sign in with OIDC') },
    });
    const forAlice = await connections.missingFor(alice, all);
    expect([...forAlice.keys()].sort()).toEqual([ids.named, ids.exchange].sort());
    expect(forAlice.get(ids.named)!.hint).toBe('set your own GH_ORG (PUT /api/v1/me/secrets/GH_ORG)');
    const signedIn: Principal = { id: 'oidc:carol@sso', name: 'carol', kind: 'oidc', roles: ['agent'] };
    rememberCallerToken(signedIn, 'a.b.c');
    expect((await connections.missingFor(signedIn, [ids.exchange, ids.shared])).size).toBe(0);
    expect(await connections.missingFor(bob, [])).toEqual(new Map());
  });
});

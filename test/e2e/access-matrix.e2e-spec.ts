import { ROLE_PERMISSIONS, ROLES, type Permission, type Role } from '../../src/shared/principal/permissions.js';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';

/**
 * The authorization matrix, generated from the route table: every operation of the OpenAPI
 * document (which is generated from the controllers) × every role, plus no key, a bad key, a
 * revoked and an expired key. Every operation must declare its permission
 * (`x-toolplane-permission`); a role that holds it is never answered 401/403, one that does not
 * gets exactly 403 FORBIDDEN. The MCP endpoints are checked the same way.
 */
const PUBLIC_PATHS = new Set(['/health/live', '/health/ready']);
/** Public routes whose capability is in the request itself (a connect link's ticket, an OAuth callback's state): a made-up one is refused as such, never as 401/403. */
const CAPABILITY_PATHS = new Map([
  ['/api/v1/connect/{ticket}', 'CONNECT_TICKET_INVALID'],
  ['/api/v1/oauth/callback', 'OAUTH_STATE_INVALID'],
]);
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

interface Operation {
  method: string;
  path: string;
  permission: Permission | undefined;
}

describe('authorization matrix', () => {
  let h: Harness;
  let operations: Operation[];
  const keys = {} as Record<Role | 'revoked' | 'expired', string>;

  beforeAll(async () => {
    // Every bad key below is a failed authentication from this address: no throttling here (rate-limits covers it).
    h = await startHarness({ TOOLPLANE_AUTH_FAILURES_PER_MINUTE: '1000000' });
    const document = (await h.api.get('/docs/openapi.json')).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, permission: operation['x-toolplane-permission'] as Permission | undefined })),
    );
    for (const role of ROLES) {
      const created = await h.api.post('/api/v1/api-keys', { name: `${role} key`, role, owner: 'the matrix' });
      expect(created.status).toBe(201);
      keys[role] = created.body.key;
    }
    const revoked = await h.api.post('/api/v1/api-keys', { name: 'revoked key', role: 'admin' });
    expect((await h.api.delete(`/api/v1/api-keys/${revoked.body.id}`)).body.state).toBe('revoked');
    keys.revoked = revoked.body.key;
    const expiring = await h.api.post('/api/v1/api-keys', { name: 'expiring key', role: 'admin', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    // Moved into the past in the database: the key was never used, so nothing holds it in a cache.
    await h.sql(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.body.id]);
    keys.expired = expiring.body.key;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, (name) => (name === '{id}' ? SAMPLE_ID : 'matrix-sample'));
  const send = (key: string | undefined, operation: Operation) => makeApi(h.url, key).request(operation.method, concrete(operation.path), ['POST', 'PUT', 'PATCH'].includes(operation.method) ? {} : undefined);

  it('covers the whole API, and every operation declares its permission', () => {
    expect(operations.length).toBeGreaterThanOrEqual(24);
    const undeclared = operations.filter((operation) => operation.permission === undefined && !PUBLIC_PATHS.has(operation.path) && !CAPABILITY_PATHS.has(operation.path));
    expect(undeclared).toEqual([]);
  });

  it('answers every role exactly as its permissions say, on every operation', async () => {
    const mismatches: string[] = [];
    for (const operation of operations.filter((o) => o.permission !== undefined)) {
      for (const role of ROLES) {
        const allowed = ROLE_PERMISSIONS[role].includes(operation.permission!);
        const response = await send(keys[role], operation);
        const ok = allowed ? response.status !== 401 && response.status !== 403 : response.status === 403 && response.body?.error?.code === 'FORBIDDEN';
        if (!ok) mismatches.push(`${role} ${operation.method} ${operation.path} (${operation.permission}): ${response.status} ${response.body?.error?.code ?? ''}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses a missing, unknown, revoked or expired key with 401 on every operation', async () => {
    const expected = { none: 'UNAUTHENTICATED', bad: 'INVALID_API_KEY', revoked: 'API_KEY_REVOKED', expired: 'API_KEY_EXPIRED' } as const;
    const presented = { none: undefined, bad: `tp_${'x'.repeat(43)}`, revoked: keys.revoked, expired: keys.expired };
    const mismatches: string[] = [];
    for (const operation of operations.filter((o) => o.permission !== undefined)) {
      for (const [kind, key] of Object.entries(presented) as [keyof typeof expected, string | undefined][]) {
        const response = await send(key, operation);
        if (response.status !== 401 || response.body?.error?.code !== expected[kind]) mismatches.push(`${kind} ${operation.method} ${operation.path}: ${response.status} ${response.body?.error?.code}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('answers public operations without a key', async () => {
    for (const path of PUBLIC_PATHS) expect((await makeApi(h.url, undefined).get(path)).status).toBe(200);
    for (const [path, code] of CAPABILITY_PATHS) expect((await makeApi(h.url, undefined).get(concrete(path))).body.error.code).toBe(code);
  });

  it('lets admins and agents use the MCP endpoints, and refuses the other roles and bad keys the MCP way', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    for (const path of ['/mcp', '/mcp/gateway']) {
      for (const role of ROLES) {
        const response = await makeApi(h.url, keys[role]).request('POST', path, list, { headers });
        const allowed = ROLE_PERMISSIONS[role].includes('mcp:use');
        if (allowed) expect({ path, role, status: response.status }).toEqual({ path, role, status: 200 });
        else expect({ path, role, status: response.status, code: response.body?.error?.data?.code }).toEqual({ path, role, status: 403, code: 'FORBIDDEN' });
      }
      const revoked = await makeApi(h.url, keys.revoked).request('POST', path, list, { headers });
      expect({ status: revoked.status, code: revoked.body?.error?.data?.code }).toEqual({ status: 401, code: 'API_KEY_REVOKED' });
      expect(revoked.headers.get('www-authenticate')).toContain('Bearer');
    }
  });
});

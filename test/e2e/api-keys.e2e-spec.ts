import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * API keys as principals: created by an admin, shown once, kept only as a hash, revocable,
 * expiring; every call and administrative change names the key's principal; an agent reads only
 * its own executions and an auditor reads who called what, not what was sent.
 */
describe('API keys', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    const source = await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] });
    expect(source.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const create = (body: Record<string, unknown>) => h.api.post('/api/v1/api-keys', body);

  it('shows a new key once, keeps only its hash, and lists it without the key', async () => {
    const created = await create({ name: 'billing agent', role: 'agent', owner: 'team billing' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'billing agent', role: 'agent', owner: 'team billing', state: 'active', createdBy: 'admin', expiresAt: null, lastUsedAt: null });
    expect(created.body.key).toMatch(/^tp_[A-Za-z0-9_-]{43}$/);
    expect(created.body.key.startsWith(created.body.prefix)).toBe(true);

    const shown = await h.api.get(`/api/v1/api-keys/${created.body.id}`);
    expect(shown.body).not.toHaveProperty('key');
    expect(shown.body).not.toHaveProperty('hash');
    const listed = await h.api.get('/api/v1/api-keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    expect(listed.body.items.map((k: { id: string }) => k.id)).toContain(created.body.id);

    const [row] = await h.sql(`SELECT * FROM api_keys WHERE id = $1`, [created.body.id]);
    expect(JSON.stringify(row)).not.toContain(created.body.key);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports every problem of a bad request at once', async () => {
    const bad = await create({ name: '  ', role: 'root', owner: 'x\u0000', expiresAt: '2001-01-01T00:00:00Z' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['expiresAt', 'name', 'owner', 'role']);
    expect((await create({ name: 5, role: ['agent'] })).body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['name', 'role']);
    expect((await create({ name: 'x', role: 'agent', expiresAt: 'tomorrow' })).body.error.details).toEqual([{ path: 'expiresAt', message: 'must be an ISO 8601 date-time' }]);
    for (const rateLimitPerMinute of [0, 1.5, '60']) {
      const refused = await create({ name: 'x', role: 'agent', rateLimitPerMinute });
      expect({ status: refused.status, code: refused.body.error.code, details: refused.body.error.details }).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        details: [{ path: 'rateLimitPerMinute', message: 'must be an integer from 1 to 100000000, or null' }],
      });
    }
    expect((await h.api.get('/api/v1/api-keys/not-a-uuid')).status).toBe(404);
    expect((await h.api.delete('/api/v1/api-keys/00000000-0000-4000-8000-000000000000')).body.error.code).toBe('API_KEY_NOT_FOUND');
  });

  it('names the principal in every call and audit event, and records when the key was last used', async () => {
    const operator = await create({ name: 'ops bot', role: 'operator' });
    const secret = await makeApi(h.url, operator.body.key).put('/api/v1/secrets/OPS_TOKEN', { value: 'v1' });
    expect(secret.status).toBe(201);
    const events = await h.api.get('/api/v1/audit-events?targetType=secret');
    expect(events.body.items[0]).toMatchObject({ action: 'secret.put', actor: operator.body.id });
    const keyEvents = await h.api.get('/api/v1/audit-events?targetType=api-key');
    expect(keyEvents.body.items.map((e: { action: string; targetName: string }) => `${e.action} ${e.targetName}`)).toContain('api-key.created ops bot');
    const used = await h.api.get(`/api/v1/api-keys/${operator.body.id}`);
    expect(used.body.lastUsedAt).not.toBeNull();
  });

  it('lets an agent read only its own executions, with their payloads; an auditor reads all, without payloads', async () => {
    const agentA = await create({ name: 'agent a', role: 'agent' });
    const agentB = await create({ name: 'agent b', role: 'agent' });
    const auditor = await create({ name: 'auditor', role: 'auditor' });
    const asA = makeApi(h.url, agentA.body.key);
    const asB = makeApi(h.url, agentB.body.key);
    const call = await asA.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'from a' } });
    expect(call.status).toBe(200);
    expect(call.body.caller).toMatchObject({ principalId: agentA.body.id, principalName: 'agent a' });

    // Over MCP too, the principal is the key's.
    const client = new Client({ name: 'agent-b-client', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agentB.body.key}` } } }));
    await client.callTool({ name: 'ev__echo', arguments: { message: 'from b' } });
    await client.close();

    const seenByA = await asA.get('/api/v1/executions');
    expect(seenByA.body.items.map((e: { caller: { principalId: string } }) => e.caller.principalId)).toEqual([agentA.body.id]);
    expect(seenByA.body.items[0].arguments).toEqual({ message: 'from a' });
    const seenByB = await asB.get(`/api/v1/executions?caller=${agentA.body.id}`);
    expect(seenByB.body.items.map((e: { caller: { principalId: string; clientName?: string } }) => [e.caller.principalId, e.caller.clientName])).toEqual([[agentB.body.id, 'agent-b-client']]);
    expect((await asB.get(`/api/v1/executions/${call.body.id}`)).status).toBe(404);

    const asAuditor = makeApi(h.url, auditor.body.key);
    const all = await asAuditor.get('/api/v1/executions');
    expect(all.body.items.length).toBeGreaterThanOrEqual(2);
    for (const item of all.body.items) expect({ arguments: item.arguments, result: item.result }).toEqual({ arguments: null, result: null });
    const one = await asAuditor.get(`/api/v1/executions/${call.body.id}`);
    expect(one.body).toMatchObject({ caller: { principalId: agentA.body.id }, arguments: null, result: null, status: 'succeeded' });

    // Stats per principal, and of one principal.
    const perCaller = await asAuditor.get('/api/v1/executions/stats?groupBy=caller');
    expect(perCaller.body.groups).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ principalId: agentA.body.id, principalName: 'agent a', count: 1 }),
        expect.objectContaining({ principalId: agentB.body.id, principalName: 'agent b', count: 1 }),
      ]),
    );
    const ofA = await asAuditor.get(`/api/v1/executions/stats?caller=${agentA.body.id}`);
    expect(ofA.body.groups).toEqual([expect.objectContaining({ qualifiedName: 'ev__echo', count: 1 })]);
  });

  it('refuses a revoked key at once, and an expired key', async () => {
    const agent = await create({ name: 'short-lived', role: 'agent', expiresAt: new Date(Date.now() + 1500).toISOString() });
    const asAgent = makeApi(h.url, agent.body.key);
    expect((await asAgent.get('/api/v1/tools')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const expired = await asAgent.get('/api/v1/tools');
    expect({ status: expired.status, code: expired.body.error.code }).toEqual({ status: 401, code: 'API_KEY_EXPIRED' });
    expect((await h.api.get(`/api/v1/api-keys/${agent.body.id}`)).body.state).toBe('expired');

    const other = await create({ name: 'to revoke', role: 'agent' });
    const asOther = makeApi(h.url, other.body.key);
    expect((await asOther.get('/api/v1/tools')).status).toBe(200);
    const revoked = await h.api.delete(`/api/v1/api-keys/${other.body.id}`);
    expect(revoked.body).toMatchObject({ state: 'revoked', revokedAt: expect.any(String) });
    const refused = await asOther.get('/api/v1/tools');
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 401, code: 'API_KEY_REVOKED' });
    // Revoking again changes nothing and writes no second event.
    expect((await h.api.delete(`/api/v1/api-keys/${other.body.id}`)).body.revokedAt).toBe(revoked.body.revokedAt);
    const events = await h.api.get('/api/v1/audit-events?targetType=api-key&action=api-key.revoked');
    expect(events.body.items.filter((e: { targetId: string }) => e.targetId === other.body.id)).toHaveLength(1);
  });

  it('leaves no key anywhere: not in the log, not in the data dir', async () => {
    const created = await create({ name: 'leak check', role: 'admin' });
    await makeApi(h.url, created.body.key).get('/api/v1/sources');
    await makeApi(h.url, `${created.body.key}x`).get('/api/v1/sources');
    expect(h.process.logs()).not.toContain(created.body.key);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        try {
          return statSync(path).isDirectory() ? walk(path) : [path];
        } catch {
          return [];
        }
      });
    const holding = walk(h.dataDir).filter((file) => {
      try {
        return readFileSync(file).includes(created.body.key);
      } catch {
        return false;
      }
    });
    expect(holding).toEqual([]);
  });
});

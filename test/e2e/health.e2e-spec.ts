import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';

/**
 * `/health/live` and `/health/ready` in the shape `@nestjs/terminus` answers: open to a load
 * balancer (status and which checks are up), with each check's detail for a credential that
 * grants ops:read (admins, operators).
 */
describe('health', () => {
  let h: Harness;
  let keys: Record<'operator' | 'agent', string>;

  beforeAll(async () => {
    h = await startHarness();
    keys = {
      operator: (await h.api.post('/api/v1/api-keys', { name: 'ops', role: 'operator' })).body.key,
      agent: (await h.api.post('/api/v1/api-keys', { name: 'agent', role: 'agent' })).body.key,
    };
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const get = (path: string, key?: string) => (key === undefined ? makeApi(h.url, undefined) : makeApi(h.url, key)).get(path);

  it('warmed up before serving (the MCP client, HTTP client and validators), without a failure', () => {
    expect(h.process.logs()).toMatch(/"context":"warm-up","msg":"warmed up in \d+ ms"/);
    expect(h.process.logs()).not.toContain('warming up failed');
  });

  it('answers liveness and readiness to anyone, without detail', async () => {
    expect((await get('/health/live')).body).toEqual({ status: 'ok', info: { process: { status: 'up' } }, error: {}, details: { process: { status: 'up' } } });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    const up = { database: { status: 'up' }, migrations: { status: 'up' }, calls: { status: 'up' }, sandbox: { status: 'up' } };
    expect(ready.body).toEqual({ status: 'ok', info: up, error: {}, details: up });
    // A key without ops:read, or a bad one, gets the same public answer (not a 401).
    expect((await get('/health/ready', keys.agent)).body).toEqual(ready.body);
    expect((await get('/health/ready', 'tp_not-a-key')).body).toEqual(ready.body);
    expect((await get('/health/ready', 'tp_not-a-key')).status).toBe(200);
  });

  it('shows each check with its detail to admins and operators', async () => {
    for (const key of [h.adminKey, keys.operator]) {
      const ready = (await get('/health/ready', key)).body;
      expect(ready).toMatchObject({
        status: 'ok',
        details: {
          database: { status: 'up', latencyMs: expect.any(Number) },
          migrations: { status: 'up', applied: expect.any(Number), pending: [] },
          calls: { status: 'up', draining: false, inFlight: 0 },
          sandbox: { status: 'up', enabled: expect.any(Boolean), mode: 'auto' },
        },
      });
      expect(ready.details.migrations.applied).toBeGreaterThan(10);
      expect((await get('/health/live', key)).body.details.process).toMatchObject({ status: 'up', pid: expect.any(Number), uptimeSeconds: expect.any(Number) });
    }
  });

  it('answers 503, naming the check that is down, when a migration is not applied', async () => {
    const [last] = await h.sql<{ name: string; timestamp: string }>('SELECT name, timestamp FROM migrations ORDER BY timestamp DESC LIMIT 1');
    await h.sql('DELETE FROM migrations WHERE name = $1', [last!.name]);
    try {
      const anonymous = await get('/health/ready');
      expect(anonymous.status).toBe(503);
      expect(anonymous.body).toMatchObject({ status: 'error', error: { migrations: { status: 'down' } }, info: { database: { status: 'up' }, calls: { status: 'up' } } });
      expect(anonymous.body.error.migrations).toEqual({ status: 'down' });
      expect((await get('/health/ready', h.adminKey)).body.error.migrations).toEqual({ status: 'down', applied: expect.any(Number), pending: [last!.name] });
      // Liveness does not depend on it.
      expect((await get('/health/live')).status).toBe(200);
    } finally {
      await h.sql('INSERT INTO migrations (timestamp, name) VALUES ($1, $2)', [last!.timestamp, last!.name]);
    }
    expect((await get('/health/ready')).status).toBe(200);
  });
});

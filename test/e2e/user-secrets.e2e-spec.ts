import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';
import { expectNoSuiteProcesses, processesMatching, SUITE_TAG } from '../helpers/processes.js';

const WHOAMI = join(FIXTURES, 'whoami-server.mjs');
/** What the fixture answers for a credential: its SHA-256 (the value itself is scrubbed from results). */
const digest = (credential: string) => createHash('sha256').update(credential).digest('hex');

/**
 * Per-user upstream credentials of mode user-secret, end to end: two principals with their own
 * `${user-secret:…}` values each reach the upstream with theirs (stdio env, HTTP header), never the
 * other's; one without gets 401 UPSTREAM_CREDENTIAL_REQUIRED naming it and nothing reaches the
 * upstream; a singleton stdio source runs one process per principal, closed on eviction, idle
 * and removal; a source registered by a principal without its value waits (awaiting_connection)
 * and discovers once that value is stored.
 */
describe('user secrets', () => {
  let h: Harness;
  let http: RunningUpstream;
  let alice: Api;
  let bob: Api;
  let carol: Api;
  let aliceId: string;

  const whoami = async (api: Api, tool: string) => {
    const answer = await api.post(`/api/v1/tools/${tool}/invoke`, { arguments: {} });
    expect([answer.status, answer.body.error ?? null]).toEqual([200, null]);
    return JSON.parse(answer.body.result.content[0].text) as { credential: string | null; instance: string };
  };
  const upstreamCalls = async () => ((await (await fetch(`http://127.0.0.1:${http.port}/count`)).json()) as { calls: number }).calls;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_PRINCIPAL_POOL_MAX: '2', TOOLPLANE_PRINCIPAL_POOL_IDLE_MS: '1500' });
    http = await startHttpUpstream((port) => [WHOAMI, '--http', '--port', String(port)], '/mcp');
    const key = async (name: string) => (await h.api.post('/api/v1/api-keys', { name, role: 'agent' })).body as { id: string; key: string };
    const [a, b, c] = [await key('alice'), await key('bob'), await key('carol')];
    aliceId = a.id;
    [alice, bob, carol] = [makeApi(h.url, a.key), makeApi(h.url, b.key), makeApi(h.url, c.key)];
    expect((await alice.put('/api/v1/me/secrets/WHO', { value: 'alice-secret-9f2c' })).status).toBe(201);
    expect((await bob.put('/api/v1/me/secrets/WHO', { value: 'bob-secret-4e1d' })).status).toBe(201);
    // The admin registers, and discovers with its own value.
    expect((await h.api.put('/api/v1/me/secrets/WHO', { value: 'admin-secret-7a7a' })).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    await http?.stop();
    await expectNoSuiteProcesses();
  });

  it("lists, replaces and deletes only the caller's own values, never showing one", async () => {
    const listed = await alice.get('/api/v1/me/secrets');
    expect(listed.body.items.map((i: { name: string }) => i.name)).toEqual(['WHO']);
    expect(JSON.stringify(listed.body)).not.toContain('alice-secret');
    expect((await carol.get('/api/v1/me/secrets')).body).toEqual({ items: [] });
    expect((await carol.put('/api/v1/me/secrets/TEMP', { value: 'x' })).status).toBe(201);
    expect((await carol.put('/api/v1/me/secrets/TEMP', { value: 'y' })).status).toBe(200);
    expect((await alice.delete('/api/v1/me/secrets/TEMP')).status).toBe(404);
    expect((await carol.delete('/api/v1/me/secrets/TEMP')).status).toBe(204);
    expect((await carol.delete('/api/v1/me/secrets/TEMP')).body.error.code).toBe('SECRET_NOT_FOUND');
  });

  it('refuses bad names, values and bodies with every problem at once', async () => {
    const bad = await alice.put('/api/v1/me/secrets/1bad', { value: '', extra: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'extra', message: expect.any(String) },
        { path: 'name', message: expect.stringContaining('must start with a letter') },
        { path: 'value', message: 'must not be empty' },
      ]),
    );
    expect((await alice.put('/api/v1/me/secrets/BIG', { value: 'x'.repeat(16 * 1024 + 1) })).body.error.details).toEqual([{ path: 'value', message: 'must be at most 16384 bytes' }]);
    expect((await alice.put('/api/v1/me/secrets/NUM', { value: 42 })).body.error.details).toEqual([{ path: 'value', message: expect.stringContaining('string') }]);
    expect((await alice.put('/api/v1/me/secrets/ARR', [1])).status).toBe(400);
    expect((await alice.request('PUT', '/api/v1/me/secrets/RAW', undefined, { raw: 'not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await alice.get('/api/v1/me/secrets')).body.items.map((i: { name: string }) => i.name)).toEqual(['WHO']);
  });

  it('refuses ${user-secret:…} outside mode user-secret, and user-secret without one', async () => {
    const outside = await h.api.post('/api/v1/sources', { name: 'bad1', transport: 'stdio', command: 'node', args: [WHOAMI], env: { WHOAMI_TOKEN: '${user-secret:WHO}' } });
    expect(outside.status).toBe(400);
    expect(outside.body.error.details).toEqual([{ path: 'env.WHOAMI_TOKEN', message: expect.stringContaining('user-secret') }]);
    const without = await h.api.post('/api/v1/sources', { name: 'bad2', transport: 'stdio', command: 'node', args: [WHOAMI], env: { WHOAMI_TOKEN: 'literal' }, upstreamAuth: { mode: 'user-secret' } });
    expect(without.body.error.details).toEqual([{ path: 'upstreamAuth.mode', message: expect.stringContaining('at least one') }]);
    const oauthOnStdio = await h.api.post('/api/v1/sources', { name: 'bad3', transport: 'stdio', command: 'node', args: [WHOAMI], upstreamAuth: { mode: 'oauth', oauth: { clientSecret: 'plain' } } });
    expect(oauthOnStdio.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['upstreamAuth.mode', 'upstreamAuth.oauth.clientSecret', 'upstreamAuth.oauth.clientSecret']);
  });

  it('sends each principal its own value over HTTP, and refuses one without it before anything reaches the upstream', async () => {
    const registered = await h.api.post('/api/v1/sources', { name: 'remote', transport: 'streamable-http', url: http.url, headers: { Authorization: 'Bearer ${user-secret:WHO}' }, upstreamAuth: { mode: 'user-secret' } });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 1, upstreamAuth: { mode: 'user-secret', discoveryPrincipal: { id: 'admin' } } });

    expect((await whoami(alice, 'remote__whoami')).credential).toBe(digest('Bearer alice-secret-9f2c'));
    expect((await whoami(bob, 'remote__whoami')).credential).toBe(digest('Bearer bob-secret-4e1d'));
    expect((await whoami(alice, 'remote__whoami')).credential).toBe(digest('Bearer alice-secret-9f2c'));

    const before = await upstreamCalls();
    const refused = await carol.post('/api/v1/tools/remote__whoami/invoke', { arguments: {} });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_CREDENTIAL_REQUIRED', missing: ['WHO'], details: [{ path: 'missing', message: 'WHO' }] });
    expect(refused.body.error.message).toContain('${user-secret:WHO}');
    expect(await upstreamCalls()).toBe(before);
    // The catalog keeps the tool for carol, with a note naming what she lacks; alice holds it: no note.
    const listed = async (api: typeof carol) => ((await api.get('/api/v1/tools?format=mcp&limit=200')).body.items as { name: string; description: string; _meta?: Record<string, unknown> }[]).find((t) => t.name === 'remote__whoami')!;
    const forCarol = await listed(carol);
    expect(forCarol._meta?.['io.toolplane/connection']).toEqual({ required: true, source: 'remote' });
    expect(forCarol.description).toContain('PUT /api/v1/me/secrets/WHO');
    expect((await listed(alice))._meta?.['io.toolplane/connection']).toBeUndefined();

    const holders = await h.api.get('/api/v1/sources/remote/user-secrets');
    expect(holders.body.names).toEqual(['WHO']);
    expect(holders.body.items.map((i: { principalId: string }) => i.principalId)).toContain(aliceId);
    expect(JSON.stringify(holders.body)).not.toContain('secret-');
  });

  it('answers a value the upstream refuses with 401 UPSTREAM_CREDENTIAL_REQUIRED for its owner to replace', async () => {
    expect((await carol.put('/api/v1/me/secrets/WHO', { value: 'rejected' })).status).toBe(201);
    const refused = await carol.post('/api/v1/tools/remote__whoami/invoke', { arguments: {} });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_CREDENTIAL_REQUIRED', missing: ['WHO'] });
    expect((await carol.delete('/api/v1/me/secrets/WHO')).status).toBe(204);
  });

  it('runs a singleton stdio source as one process per principal, evicting the least recently used and closing idle ones', async () => {
    const registered = await h.api.post('/api/v1/sources', {
      name: 'local',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [WHOAMI, SUITE_TAG],
      env: { WHOAMI_TOKEN: '${user-secret:WHO}' },
      upstreamAuth: { mode: 'user-secret' },
    });
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 1 });

    const a = await whoami(alice, 'local__whoami');
    const b = await whoami(bob, 'local__whoami');
    expect([a.credential, b.credential]).toEqual([digest('alice-secret-9f2c'), digest('bob-secret-4e1d')]);
    expect(a.instance).not.toBe(b.instance);
    expect((await whoami(alice, 'local__whoami')).instance).toBe(a.instance);
    // Three principals used it (the admin at discovery, alice, bob): two processes are kept.
    expect(plugins()).toHaveLength(2);

    // Unused for TOOLPLANE_PRINCIPAL_POOL_IDLE_MS: each principal's process is stopped.
    await waitFor(() => plugins().length === 0, 8000);
    const again = await whoami(bob, 'local__whoami');
    expect(again.instance).not.toBe(b.instance);
    expect(plugins()).toHaveLength(1);

    expect((await h.api.delete('/api/v1/sources/local')).status).toBe(204);
    await expectNoSuiteProcesses();
  });

  it("starts a transient stdio source's process with the caller's own env, and leaves none running", async () => {
    const registered = await h.api.post('/api/v1/sources', { name: 'once', transport: 'stdio', command: 'node', args: [WHOAMI, SUITE_TAG], env: { WHOAMI_TOKEN: '${user-secret:WHO}' }, upstreamAuth: { mode: 'user-secret' } });
    expect(registered.body).toMatchObject({ health: 'healthy', lifecycle: 'transient' });
    expect((await whoami(bob, 'once__whoami')).credential).toBe(digest('bob-secret-4e1d'));
    expect((await whoami(alice, 'once__whoami')).credential).toBe(digest('alice-secret-9f2c'));
    await waitFor(() => plugins().length === 0, 5000);
  });

  it('registers a source its discovery principal cannot discover yet (awaiting_connection), and discovers once the value is stored', async () => {
    const created = await h.api.post('/api/v1/sources', { name: 'later', transport: 'streamable-http', url: http.url, headers: { Authorization: 'Bearer ${user-secret:LATER}' }, upstreamAuth: { mode: 'user-secret' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ health: 'awaiting_connection', toolCount: 0, lastError: expect.stringContaining('${user-secret:LATER}') });
    expect((await h.api.post('/api/v1/sources/later/refresh', {})).body.error).toMatchObject({ code: 'SOURCE_AWAITING_CONNECTION' });

    expect((await h.api.put('/api/v1/me/secrets/LATER', { value: 'admin-later-5c5c' })).status).toBe(201);
    await waitFor(async () => (await h.api.get('/api/v1/sources/later')).body.health === 'healthy', 10_000);
    expect((await h.api.get('/api/v1/sources/later')).body.toolCount).toBe(1);
  });

  it("drops a revoked key's own values", async () => {
    const temp = (await h.api.post('/api/v1/api-keys', { name: 'temp', role: 'agent' })).body as { id: string; key: string };
    const api = makeApi(h.url, temp.key);
    expect((await api.put('/api/v1/me/secrets/WHO', { value: 'temp-secret-1111' })).status).toBe(201);
    expect(await h.sql(`SELECT name FROM user_secrets WHERE principal_id = $1`, [temp.id])).toHaveLength(1);
    expect((await h.api.delete(`/api/v1/api-keys/${temp.id}`)).status).toBe(200);
    expect(await h.sql(`SELECT name FROM user_secrets WHERE principal_id = $1`, [temp.id])).toHaveLength(0);
  });
});

/** The whoami plugins this file started that still run (the sandbox's own process aside). */
function plugins(): string[] {
  return processesMatching(SUITE_TAG).filter((line) => line.includes('whoami-server') && !line.includes('bwrap'));
}

async function waitFor(condition: () => boolean | Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition was not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { makeApi, startHarness, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';

const newKey = () => `tp_${randomBytes(32).toString('base64url')}`;

/**
 * API keys in the configuration file: created from a key kept in a stored secret or Toolplane's
 * environment (never in the file), their role and restrictions changed in place, their key
 * replaced, exported with `${stored}`, revoked by prune only when the file has `keys:`; only a
 * caller that may manage keys applies or exports them.
 */
describe('API keys as code', () => {
  let h: Harness;
  let dir: string;
  const bootKey = newKey();
  const agentKey = newKey();

  const applyYaml = (document: unknown, query = '', key = h.adminKey): Promise<ApiResponse> =>
    makeApi(h.url, key).request('POST', `/api/v1/config/apply${query}`, undefined, { raw: typeof document === 'string' ? document : stringify(document), headers: { 'content-type': 'application/yaml' } });
  const me = (key: string) => makeApi(h.url, key).get('/api/v1/access/me');
  const activeKeyNames = async () => (await h.sql<{ name: string }>('SELECT name FROM api_keys WHERE revoked_at IS NULL ORDER BY name')).map((r) => r.name);
  const auditCount = async () => Number((await h.sql('SELECT count(*) AS n FROM audit_events'))[0].n);
  const agent = (extra: Record<string, unknown> = {}) => ({
    name: 'ci-agent',
    role: 'agent',
    owner: 'platform team',
    allowedSources: ['github'],
    rateLimitPerMinute: 600,
    key: '${secret:CI_AGENT_KEY}',
    ...extra,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolplane-config-keys-'));
    const file = join(dir, 'toolplane.yaml');
    writeFileSync(file, stringify({ sources: [], keys: [{ name: 'boot-agent', role: 'agent', allowedTools: ['everything__echo'], key: '${env:BOOT_AGENT_KEY}' }] }));
    h = await startHarness({ TOOLPLANE_CONFIG: file, BOOT_AGENT_KEY: bootKey });
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the keys TOOLPLANE_CONFIG declares at start, from a key in the environment', async () => {
    await until(async () => (await me(bootKey)).status === 200, 10_000);
    const answer = await me(bootKey);
    expect(answer.body).toMatchObject({ name: 'boot-agent', kind: 'api-key', roles: ['agent'], allowedSources: null, allowedTools: ['everything__echo'] });
    const events = await h.sql<{ action: string; details: Record<string, unknown> }>("SELECT action, details FROM audit_events WHERE actor = 'config-file' ORDER BY occurred_at");
    expect(events.map((e) => e.action)).toEqual(['api-key.created', 'config.applied']);
    expect(JSON.stringify(events)).not.toContain(bootKey);
  });

  it('creates a key from a stored secret: the dry run shows it, the apply makes it, the key opens the door with its restrictions', async () => {
    expect((await h.api.put('/api/v1/secrets/CI_AGENT_KEY', { value: agentKey })).status).toBeLessThan(300);
    const document = { sources: [], keys: [{ name: 'boot-agent', role: 'agent', allowedTools: ['everything__echo'], key: '${stored}' }, agent()] };
    const dry = await applyYaml(document, '?dryRun=true');
    expect(dry.status).toBe(200);
    expect(dry.body.changes).toEqual([
      { kind: 'key', name: 'boot-agent', action: 'unchanged', fields: [] },
      { kind: 'key', name: 'ci-agent', action: 'create', fields: [] },
    ]);
    expect((await me(agentKey)).status).toBe(401);

    const applied = await applyYaml(document);
    expect(applied.status).toBe(200);
    expect(applied.body.summary).toEqual({ create: 1, update: 0, unchanged: 1, delete: 0 });
    expect((await me(agentKey)).body).toMatchObject({ name: 'ci-agent', roles: ['agent'], allowedSources: ['github'], allowedTools: null });
    const listed = (await h.api.get('/api/v1/api-keys')).body.items.find((k: { name: string }) => k.name === 'ci-agent');
    expect(listed).toMatchObject({ owner: 'platform team', rateLimitPerMinute: 600, prefix: agentKey.slice(0, 11), state: 'active' });
    expect(JSON.stringify(await h.sql('SELECT * FROM audit_events'))).not.toContain(agentKey);
  });

  it('changes a key’s role and restrictions in place, taking effect on its next request', async () => {
    const before = (await h.sql<{ id: string }>("SELECT id FROM api_keys WHERE name = 'ci-agent'"))[0]!.id;
    const changed = await applyYaml({ sources: [], keys: [agent({ role: 'auditor', allowedSources: null, allowedTools: ['github__get_*'], key: '${stored}' })] });
    expect(changed.status).toBe(200);
    expect(changed.body.changes).toEqual([{ kind: 'key', name: 'ci-agent', action: 'update', fields: ['role', 'allowedSources', 'allowedTools'] }]);
    expect((await me(agentKey)).body).toMatchObject({ name: 'ci-agent', roles: ['auditor'], allowedSources: null, allowedTools: ['github__get_*'] });
    // The same key, changed: not a new one.
    expect((await h.sql<{ id: string }>("SELECT id FROM api_keys WHERE name = 'ci-agent' AND revoked_at IS NULL"))[0]!.id).toBe(before);
    const event = (await h.sql<{ details: Record<string, unknown> }>("SELECT details FROM audit_events WHERE action = 'api-key.updated'"))[0]!;
    expect(event.details).toMatchObject({ fields: ['role', 'allowedSources', 'allowedTools'], role: 'auditor', allowedTools: ['github__get_*'] });
  });

  it('replaces a key whose reference now holds another: the old key is refused, the new one opens', async () => {
    const replacement = newKey();
    expect((await h.api.put('/api/v1/secrets/CI_AGENT_KEY', { value: replacement })).status).toBeLessThan(300);
    const replaced = await applyYaml({ sources: [], keys: [agent({ role: 'auditor', allowedSources: null, allowedTools: ['github__get_*'] })] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.changes).toEqual([{ kind: 'key', name: 'ci-agent', action: 'update', fields: ['key'] }]);
    expect((await me(agentKey)).status).toBe(401);
    expect((await me(replacement)).body).toMatchObject({ name: 'ci-agent', roles: ['auditor'] });
    expect(JSON.stringify(await h.sql('SELECT * FROM audit_events'))).not.toContain(replacement);
  });

  it('exports the active keys with ${stored} for the key, only to a caller that may manage keys, and apply → export → apply changes nothing', async () => {
    const operator = (await h.api.post('/api/v1/api-keys', { name: 'ops', role: 'operator', allowedGroups: ['support', 'triage-*'] })).body.key as string;
    const response = await h.api.request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/yaml' } });
    expect(response.status).toBe(200);
    const text = response.body as string;
    expect(text).not.toContain(bootKey);
    expect(text).not.toContain(operator);
    const document = parse(text);
    expect(document.keys).toEqual([
      { name: 'boot-agent', role: 'agent', allowedTools: ['everything__echo'], key: '${stored}' },
      { name: 'ci-agent', role: 'auditor', owner: 'platform team', allowedTools: ['github__get_*'], rateLimitPerMinute: 600, key: '${stored}' },
      { name: 'ops', role: 'operator', allowedGroups: ['support', 'triage-*'], key: '${stored}' },
    ]);
    const audits = await auditCount();
    const again = await applyYaml(text);
    expect(again.status).toBe(200);
    expect(again.body.summary).toEqual({ create: 0, update: 0, unchanged: 3, delete: 0 });
    expect(await auditCount()).toBe(audits);

    // An operator exports the sources only, and may not apply a file that declares keys.
    const asOperator = await makeApi(h.url, operator).request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/json' } });
    expect(asOperator.status).toBe(200);
    expect(asOperator.body).toEqual({ sources: [] });
    const refused = await applyYaml(text, '', operator);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: [{ path: 'keys', message: expect.stringContaining('keys:manage') }] });
    expect((await applyYaml({ sources: [] }, '', operator)).status).toBe(200);
  });

  it('revokes with prune only the keys a file with `keys:` leaves out, never the key making the request', async () => {
    const manual = (await h.api.post('/api/v1/api-keys', { name: 'manual', role: 'agent' })).body.key as string;
    const declared = { sources: [], keys: [{ name: 'boot-agent', role: 'agent', allowedTools: ['everything__echo'] }, { name: 'ops', role: 'operator' }] };

    // Without a keys: list, prune leaves keys alone.
    const sourcesOnly = await applyYaml({ sources: [] }, '?prune=true&dryRun=true');
    expect(sourcesOnly.body.changes).toEqual([]);

    const dry = await applyYaml(declared, '?prune=true&dryRun=true');
    expect(dry.status).toBe(200);
    expect(dry.body.changes.filter((c: { action: string }) => c.action === 'delete').map((c: { name: string }) => c.name).sort()).toEqual(['ci-agent', 'manual']);
    expect(await activeKeyNames()).toEqual(['boot-agent', 'ci-agent', 'manual', 'ops']);

    // An admin key applying with prune would revoke itself: refused, nothing applied.
    const admin = (await h.api.post('/api/v1/api-keys', { name: 'release-bot', role: 'admin' })).body.key as string;
    const self = await applyYaml(declared, '?prune=true', admin);
    expect(self.status).toBe(400);
    expect(self.body.error.details).toEqual([{ path: 'keys', message: expect.stringContaining('"release-bot"') }]);
    expect(await activeKeyNames()).toEqual(['boot-agent', 'ci-agent', 'manual', 'ops', 'release-bot']);

    const pruned = await applyYaml({ ...declared, keys: [...declared.keys, { name: 'release-bot', role: 'admin' }] }, '?prune=true', admin);
    expect(pruned.status).toBe(200);
    expect(await activeKeyNames()).toEqual(['boot-agent', 'ops', 'release-bot']);
    expect((await me(manual)).status).toBe(401);
    expect((await me(manual)).body.error.code).toBe('API_KEY_REVOKED');
  });

  it('reports every problem of the declared keys at once and changes nothing', async () => {
    await h.api.post('/api/v1/api-keys', { name: 'twin', role: 'agent' });
    await h.api.post('/api/v1/api-keys', { name: 'twin', role: 'agent' });
    expect((await h.api.put('/api/v1/secrets/NOT_A_KEY', { value: 'hunter2' })).status).toBeLessThan(300);
    const literalKey = newKey();
    expect((await h.api.put('/api/v1/secrets/IN_USE', { value: bootKey })).status).toBeLessThan(300);
    const before = await h.sql('SELECT * FROM api_keys ORDER BY id');
    const audits = await auditCount();
    const bad = await applyYaml({
      sources: [],
      keys: [
        { name: 'literal', role: 'agent', key: literalKey },
        { name: 'missing', role: 'agent', key: '${secret:NO_SUCH_SECRET}' },
        { name: 'unset', role: 'agent', key: '${env:NO_SUCH_VARIABLE}' },
        { name: 'stored', role: 'agent', key: '${stored}' },
        { name: 'weak', role: 'agent', key: '${secret:NOT_A_KEY}' },
        { name: 'reused', role: 'agent', key: '${secret:IN_USE}' },
        { name: 'bad', role: 'root', allowedTools: ['no spaces'], rateLimitPerMinute: 0, expiresAt: 'tomorrow', colour: 'blue' },
        { name: 'twin', role: 'agent' },
        { name: 'literal', role: 'agent' },
        'just a string',
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const paths = (bad.body.error.details as { path: string; message: string }[]).map((d) => d.path).sort();
    expect(paths).toEqual(
      [
        'keys[0].key',
        'keys[1].key',
        'keys[2].key',
        'keys[3].key',
        'keys[4].key',
        'keys[5].key',
        'keys[6].allowedTools[0]',
        'keys[6].colour',
        'keys[6].key',
        'keys[6].expiresAt',
        'keys[6].rateLimitPerMinute',
        'keys[6].role',
        'keys[7].name',
        'keys[8].name',
        'keys[8].key',
        'keys[9]',
      ].sort(),
    );
    const text = JSON.stringify(bad.body);
    for (const value of [literalKey, bootKey, 'hunter2']) expect(text).not.toContain(value);
    expect(await h.sql('SELECT * FROM api_keys ORDER BY id')).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });
});

describe('API keys as code: the list itself', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a keys: that is not a list, or one too long, and changes nothing', async () => {
    const apply = (document: unknown) =>
      h.api.request('POST', '/api/v1/config/apply', undefined, { raw: stringify(document), headers: { 'content-type': 'application/yaml' } });
    const notList = await apply({ sources: [], keys: { name: 'x', role: 'agent' } });
    expect(notList.status).toBe(400);
    expect(notList.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'keys', message: expect.stringContaining('must be a list') }] });
    const tooMany = await apply({ sources: [], keys: Array.from({ length: 1001 }, (_, i) => ({ name: `k${i}`, role: 'agent' })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details).toEqual([{ path: 'keys', message: 'declares 1001 keys; at most 1000 fit in one file' }]);
    expect(await h.sql('SELECT id FROM api_keys')).toEqual([]);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

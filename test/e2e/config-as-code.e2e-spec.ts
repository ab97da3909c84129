import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { makeApi, startHarness, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';
import { spawnToolplane } from '../helpers/toolplane-process.js';
import { EVERYTHING, EVERYTHING_TOOL_COUNT, freePort, MEMORY_DIR, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

/**
 * Configuration as code: TOOLPLANE_CONFIG applied at start (an upstream that is not up yet is
 * registered and found once it answers), POST /api/v1/config/apply with its dry-run diff and
 * prune, GET /api/v1/config/export without a secret value, and apply → export → apply changing
 * nothing.
 */
describe('configuration as code', () => {
  let h: Harness;
  let dir: string;
  let remotePort: number;
  let remote: RunningUpstream | undefined;
  const LITERAL_TOKEN = 'sk-live-0123456789abcdef';

  const declared = () => ({
    sources: [
      { name: 'everything', transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'], lifecycle: 'singleton', timeoutMs: 20_000 },
      {
        name: 'remote',
        description: 'server-everything over streamable HTTP',
        transport: 'streamable-http',
        url: `http://127.0.0.1:${remotePort}/mcp`,
        headers: { Authorization: 'Bearer ${secret:REMOTE_TOKEN}' },
        refreshIntervalSeconds: 60,
      },
    ],
  });

  const applyYaml = (text: string, query = '', key = h.adminKey): Promise<ApiResponse> =>
    makeApi(h.url, key).request('POST', `/api/v1/config/apply${query}`, undefined, { raw: text, headers: { 'content-type': 'application/yaml' } });
  const exportYaml = async (): Promise<string> => {
    const response = await h.api.request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/yaml' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/yaml/);
    return response.body as string;
  };
  const sourceNames = async () => ((await h.api.get('/api/v1/sources')).body.items as { name: string }[]).map((s) => s.name).sort();
  const auditCount = async () => Number((await h.sql('SELECT count(*) AS n FROM audit_events'))[0].n);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolplane-config-'));
    remotePort = await freePort();
    const file = join(dir, 'toolplane.yaml');
    writeFileSync(file, stringify(declared()));
    // Neither the secret the remote source refers to nor its upstream exists yet.
    h = await startHarness({ TOOLPLANE_CONFIG: file, TOOLPLANE_REFRESH_TICK_MS: '200', TOOLPLANE_REFRESH_RETRY_INITIAL_MS: '200' });
  }, 90_000);

  afterAll(async () => {
    await remote?.stop();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies TOOLPLANE_CONFIG at start and retries what cannot apply yet, never stopping Toolplane', async () => {
    // REMOTE_TOKEN did not exist at start: the file was valid but did not pass the checks, so nothing was applied yet.
    expect(await sourceNames()).toEqual([]);
    expect(h.process.logs()).toContain('could not be applied yet (retrying in 1 s)');
    expect(h.process.logs()).toMatch(/sources\[1\]\.headers\.Authorization: refers to secret \\"REMOTE_TOKEN\\", which does not exist/);
    expect((await h.api.put('/api/v1/secrets/REMOTE_TOKEN', { value: 'token-from-the-vault' })).status).toBeLessThan(300);

    // The backoff retry applies it; the remote upstream is still down, which does not hold anything up.
    await until(async () => (await sourceNames()).length === 2, 20_000);
    expect(await sourceNames()).toEqual(['everything', 'remote']);
    await until(async () => (await h.api.get('/api/v1/sources/everything')).body.toolCount === EVERYTHING_TOOL_COUNT, 20_000);
    expect((await h.api.get('/api/v1/sources/remote')).body.health).not.toBe('healthy');

    // Once the upstream answers, the scheduled retry finds its tools.
    remote = await startHttpUpstream([EVERYTHING, 'streamableHttp'], '/mcp', {}, remotePort);
    await until(async () => (await h.api.get('/api/v1/sources/remote')).body.toolCount === EVERYTHING_TOOL_COUNT, 30_000);
    expect((await h.api.get('/api/v1/sources/remote')).body.health).toBe('healthy');

    const events = await h.sql<{ actor: string; action: string }>("SELECT actor, action FROM audit_events WHERE actor = 'config-file' ORDER BY occurred_at");
    expect(events.map((e) => e.action)).toEqual(['source.registered', 'source.registered', 'config.applied']);
  }, 90_000);

  it('applies the same file again without changing or recording anything', async () => {
    const before = await auditCount();
    const versions = await h.sql('SELECT name, version FROM sources ORDER BY name');
    const again = await applyYaml(stringify(declared()));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      dryRun: false,
      prune: false,
      changes: [
        { kind: 'source', name: 'everything', action: 'unchanged', fields: [] },
        { kind: 'source', name: 'remote', action: 'unchanged', fields: [] },
      ],
      summary: { create: 0, update: 0, unchanged: 2, delete: 0 },
    });
    expect(await auditCount()).toBe(before);
    expect(await h.sql('SELECT name, version FROM sources ORDER BY name')).toEqual(versions);
  });

  it('exports the sources as the file declares them, without any secret value, and apply → export → apply changes nothing', async () => {
    // A token typed in place (not a reference) must never leave Toolplane through an export.
    const patched = await h.api.patch('/api/v1/sources/everything', { env: { API_TOKEN: LITERAL_TOKEN, MODE: 'test ${env:HOME}' } });
    expect(patched.status).toBe(200);
    const exported = await exportYaml();
    expect(exported).not.toContain(LITERAL_TOKEN);
    expect(exported).not.toContain('token-from-the-vault');
    const document = parse(exported);
    expect(document).toEqual({
      sources: [
        {
          name: 'everything',
          transport: 'stdio',
          lifecycle: 'singleton',
          command: 'node',
          args: [EVERYTHING, 'stdio'],
          env: { API_TOKEN: '${stored}', MODE: '${stored}' },
          timeoutMs: 20_000,
        },
        {
          name: 'remote',
          description: 'server-everything over streamable HTTP',
          transport: 'streamable-http',
          url: `http://127.0.0.1:${remotePort}/mcp`,
          headers: { Authorization: 'Bearer ${secret:REMOTE_TOKEN}' },
          refreshIntervalSeconds: 60,
        },
      ],
    });
    // The JSON form is the same document.
    expect((await h.api.request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/json' } })).body).toEqual(document);

    const before = await auditCount();
    const applied = await applyYaml(exported);
    expect(applied.status).toBe(200);
    expect(applied.body.summary).toEqual({ create: 0, update: 0, unchanged: 2, delete: 0 });
    expect(await auditCount()).toBe(before);
    expect(await exportYaml()).toBe(exported);
    // `${stored}` kept the value: the source still holds a literal API_TOKEN.
    const env = (await h.api.get('/api/v1/sources/everything')).body.env as { name: string; origin: string }[];
    expect(env.find((v) => v.name === 'API_TOKEN')).toMatchObject({ origin: 'literal' });
  });

  it('answers a dry run with the diff (create / update with fields / unchanged / delete with prune) and changes nothing', async () => {
    const next = declared();
    next.sources[0] = { ...next.sources[0]!, timeoutMs: 25_000, lifecycle: 'transient' } as (typeof next.sources)[0];
    next.sources.splice(1, 1);
    next.sources.push({ name: 'memory', transport: 'stdio', command: 'node', args: [`${MEMORY_DIR}/dist/index.js`] } as (typeof next.sources)[0]);
    const before = await auditCount();

    const withoutPrune = await applyYaml(stringify(next), '?dryRun=true');
    expect(withoutPrune.status).toBe(200);
    expect(withoutPrune.body).toEqual({
      dryRun: true,
      prune: false,
      changes: [
        // The file no longer sets env: leaving a setting out means its default.
        { kind: 'source', name: 'everything', action: 'update', fields: ['lifecycle', 'env', 'timeoutMs'] },
        { kind: 'source', name: 'memory', action: 'create', fields: [] },
      ],
      summary: { create: 1, update: 1, unchanged: 0, delete: 0 },
    });
    const withPrune = await applyYaml(stringify(next), '?dryRun=true&prune=true');
    expect(withPrune.body.changes).toContainEqual({ kind: 'source', name: 'remote', action: 'delete', fields: [] });
    expect(withPrune.body.summary).toEqual({ create: 1, update: 1, unchanged: 0, delete: 1 });
    expect(await auditCount()).toBe(before);
    expect(await sourceNames()).toEqual(['everything', 'remote']);

    const applied = await applyYaml(stringify(next), '?prune=true');
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ dryRun: false, prune: true, summary: { create: 1, update: 1, unchanged: 0, delete: 1 } });
    expect(await sourceNames()).toEqual(['everything', 'memory']);
    const everything = (await h.api.get('/api/v1/sources/everything')).body;
    expect(everything).toMatchObject({ timeoutMs: 25_000, lifecycle: 'transient', env: [] });
    const actions = await h.sql<{ action: string; target_name: string | null }>(
      'SELECT action, target_name FROM audit_events ORDER BY occurred_at DESC, id DESC LIMIT 4',
    );
    expect(actions.map((a) => a.action).sort()).toEqual(['config.applied', 'source.registered', 'source.removed', 'source.updated']);
    expect((await applyYaml(stringify(next), '?prune=true')).body.summary).toEqual({ create: 0, update: 0, unchanged: 2, delete: 0 });
  }, 60_000);

  it('updates a remote source’s headers and URL in place', async () => {
    const upstream = remote!;
    const file = { sources: [...(parse(await exportYaml()) as { sources: object[] }).sources, { name: 'remote', transport: 'streamable-http', url: upstream.url, headers: { 'X-Team': 'tools' } }] };
    expect((await applyYaml(stringify(file))).body.changes).toContainEqual({ kind: 'source', name: 'remote', action: 'create', fields: [] });
    file.sources[2] = { name: 'remote', transport: 'streamable-http', url: `${upstream.url}?team=platform`, headers: { 'X-Team': 'platform', Authorization: 'Bearer ${secret:REMOTE_TOKEN}' } };
    const updated = await applyYaml(stringify(file));
    expect(updated.status).toBe(200);
    expect(updated.body.changes).toContainEqual({ kind: 'source', name: 'remote', action: 'update', fields: ['url', 'headers'] });
    const view = (await h.api.get('/api/v1/sources/remote')).body;
    expect(view.url).toBe(`${upstream.url}?team=platform`);
    expect(view.headers.map((v: { name: string }) => v.name).sort()).toEqual(['Authorization', 'X-Team']);
    await until(async () => (await h.api.get('/api/v1/sources/remote')).body.toolCount === EVERYTHING_TOOL_COUNT, 20_000);
  }, 60_000);

  it('reports every problem of a bad file at once and applies nothing', async () => {
    const before = await auditCount();
    const names = await sourceNames();
    const bad = {
      sources: [
        { name: 'Bad Name', transport: 'stdio', command: 'node' },
        { name: 'no-transport', command: 'node' },
        { name: 'everything', transport: 'streamable-http', url: 'http://127.0.0.1:1/mcp' },
        { name: 'fresh', transport: 'stdio', command: 'node', env: { TOKEN: '${stored}' } },
        { name: 'missing-command', transport: 'stdio', command: 'definitely-not-a-command-xyz' },
        { name: 'fresh', transport: 'stdio', command: 'node' },
      ],
      extra: true,
    };
    const response = await applyYaml(stringify(bad));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    const paths = (response.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['extra', 'sources[0].name', 'sources[1].transport', 'sources[2].transport', 'sources[3].env.TOKEN', 'sources[4].command', 'sources[5].name']),
    );
    expect(response.body.error.details).toContainEqual({ path: 'sources[5].name', message: '"fresh" is declared twice (first at sources[3])' });
    expect(await auditCount()).toBe(before);
    expect(await sourceNames()).toEqual(names);

    const syntax = await applyYaml('sources:\n  - name: x\n    transport: [stdio\n');
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.details[0].path).toMatch(/^line \d+, column \d+$/);
    const duplicateKey = await applyYaml('sources: []\nsources: []\n');
    expect(duplicateKey.body.error.details[0]).toMatchObject({ path: 'line 2, column 1', message: expect.stringContaining('unique') });
    // Alias bombs, prototype keys, custom tags and an empty file are refused, not expanded.
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `b${i}: &b${i} [${Array(10).fill(i === 0 ? '*a' : `*b${i - 1}`).join(', ')}]`)].join('\n');
    expect((await applyYaml(bomb)).body.error.details).toEqual([{ path: 'body', message: 'has aliases that expand to too many values' }]);
    const manyAliases = `a: &a x\nsources: [${Array(101).fill('*a').join(', ')}]\n`;
    expect((await applyYaml(manyAliases)).body.error.details).toEqual([{ path: 'body', message: 'uses more than 100 aliases' }]);
    expect((await applyYaml('sources: []\n__proto__: {polluted: true}\n')).body.error.details).toContainEqual({ path: 'line 2', message: 'the key "__proto__" is not allowed' });
    expect((await applyYaml('sources: !!js/function "x"\n')).status).toBe(400);
    expect((await applyYaml('')).body.error.details).toEqual([{ path: 'body', message: expect.stringContaining('is empty') }]);
    expect((await applyYaml('- just\n- a list\n')).body.error.details).toEqual([{ path: 'body', message: 'must be a mapping with a `sources:` list' }]);
    expect((await applyYaml('sources: []', '?prune=maybe')).status).toBe(400);
    expect(await sourceNames()).toEqual(names);
  });

  it('reads a large file off the event loop, with the same answer', async () => {
    // 300 declared sources (~40 KiB of YAML, past the size parsed in place), checked in a dry run.
    const many = { sources: Array.from({ length: 300 }, (_, i) => ({ name: `bulk-${String(i).padStart(3, '0')}`, transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'], description: `bulk source ${i} `.repeat(4) })) };
    const text = stringify(many);
    expect(text.length).toBeGreaterThan(32 * 1024);
    const dryRun = await applyYaml(text, '?dryRun=true');
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.summary).toEqual({ create: 300, update: 0, unchanged: 0, delete: 0 });
    const broken = await applyYaml(`${text}  - name: bulk-000\n    transport: stdio\n    command: node\n`, '?dryRun=true');
    expect(broken.body.error.details).toEqual([{ path: 'sources[300].name', message: '"bulk-000" is declared twice (first at sources[0])' }]);
    const syntax = await applyYaml(`${text}\n  - [unclosed`, '?dryRun=true');
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.details[0].path).toMatch(/^line \d+, column \d+$/);
    expect(await sourceNames()).not.toContain('bulk-000');
  });

  it('takes the same document as JSON, and only from a role that may change sources', async () => {
    const current = parse(await exportYaml());
    const asJson = await h.api.post('/api/v1/config/apply?dryRun=true', current);
    expect(asJson.status).toBe(200);
    expect(asJson.body.summary.unchanged).toBe(current.sources.length);

    const agent = (await h.api.post('/api/v1/api-keys', { name: 'agent', role: 'agent' })).body.key as string;
    const auditor = (await h.api.post('/api/v1/api-keys', { name: 'auditor', role: 'auditor' })).body.key as string;
    expect((await applyYaml(stringify(current), '?dryRun=true', agent)).status).toBe(403);
    expect((await applyYaml(stringify(current), '?dryRun=true', auditor)).status).toBe(403);
    expect((await makeApi(h.url, auditor).get('/api/v1/config/export')).status).toBe(200);
    expect((await makeApi(h.url, agent).get('/api/v1/config/export')).status).toBe(403);
    expect((await makeApi(h.url, undefined).get('/api/v1/config/export')).status).toBe(401);
    // A YAML body anywhere else is not a registration.
    const elsewhere = await h.api.request('POST', '/api/v1/sources', undefined, { raw: 'name: x\n', headers: { 'content-type': 'application/yaml' } });
    expect(elsewhere.status).toBe(400);
  });

  it('refuses to start on a malformed file, listing every problem', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, stringify({ sources: [{ name: 'ok', transport: 'stdio', command: 'node' }, { name: 'UPPER', transport: 'carrier-pigeon' }], other: 1 }));
    const start = spawnToolplane({ HOST: '127.0.0.1', DATABASE_URL: h.databaseUrl, TOOLPLANE_ADMIN_KEY: h.adminKey, TOOLPLANE_CONFIG: file,
      TOOLPLANE_ENCRYPTION_KEY: readFileSync(join(h.dataDir, 'encryption.key'), 'utf8').trim(),
      TOOLPLANE_DATA_DIR: mkdtempSync(join(dir, 'data-')),
    });
    const failure = (await start.then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (error: Error) => error.message,
    )) as string;
    expect(failure).toContain('exited (code 1');
    expect(failure).toContain('is invalid');
    expect(failure).toContain('other: is not a known key');
    expect(failure).toContain('sources[1].name');
    expect(failure).toContain('sources[1].transport');
  }, 60_000);
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('configuration as code: tool groups', () => {
  let h: Harness;
  const everything = { name: 'ev', transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'], lifecycle: 'singleton' };
  const support = {
    name: 'support',
    description: 'The support bot',
    include: ['ev__echo', 'ev__get-sum'],
    overrides: { ev__echo: { name: 'say', description: 'Says the fixed phrase back', locked: { message: 'locked phrase' } } },
  };
  const readers = { name: 'readers', select: [{ sources: ['ev'], annotations: { readOnlyHint: true } }], exclude: ['ev__get-env'] };
  const applyYaml = (document: unknown, query = '', key = h.adminKey): Promise<ApiResponse> =>
    makeApi(h.url, key).request('POST', `/api/v1/config/apply${query}`, undefined, { raw: stringify(document), headers: { 'content-type': 'application/yaml' } });
  const exported = async (key = h.adminKey) => parse((await makeApi(h.url, key).request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/yaml' } })).body as string);

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('creates the groups a file declares after its sources, serves them at once, and audits each as the groups API does', async () => {
    const dry = await applyYaml({ sources: [everything], groups: [support, readers] }, '?dryRun=true');
    expect(dry.body.changes).toEqual([
      { kind: 'source', name: 'ev', action: 'create', fields: [] },
      { kind: 'group', name: 'support', action: 'create', fields: [] },
      { kind: 'group', name: 'readers', action: 'create', fields: [] },
    ]);
    expect((await h.api.get('/api/v1/groups')).body.items).toEqual([]);

    const applied = await applyYaml({ sources: [everything], groups: [support, readers] });
    expect(applied.status).toBe(200);
    expect(applied.body.summary).toEqual({ create: 3, update: 0, unchanged: 0, delete: 0 });
    const served = (await h.api.get('/api/v1/tools?group=support&format=mcp')).body.items.map((t: { name: string }) => t.name).sort();
    expect(served).toEqual(['get-sum', 'say']);
    const called = await h.api.post('/api/v1/groups/support/tools/say/invoke', { arguments: {} });
    expect(called.status).toBe(200);
    expect(JSON.stringify(called.body.result)).toContain('locked phrase');
    const audited = await h.sql<{ action: string; target_name: string }>(`SELECT action, target_name FROM audit_events WHERE target_type = 'group' ORDER BY seq`);
    expect(audited).toEqual([
      { action: 'group.created', target_name: 'support' },
      { action: 'group.created', target_name: 'readers' },
    ]);
  });

  it('exports the groups as declared, and apply → export → apply changes nothing', async () => {
    const document = await exported();
    expect(document.groups).toEqual([readers, support]);
    const audits = await h.sql(`SELECT count(*) AS n FROM audit_events`);
    const again = await applyYaml(document);
    expect(again.body.summary).toEqual({ create: 0, update: 0, unchanged: 3, delete: 0 });
    expect(await h.sql(`SELECT count(*) AS n FROM audit_events`)).toEqual(audits);
    expect(await exported()).toEqual(document);
  });

  it('updates the fields that differ, removes with prune the groups left out, and lists every problem of a bad group at once', async () => {
    const changed = await applyYaml({ sources: [everything], groups: [{ ...support, description: 'Support, again', include: ['ev__echo'] }] }, '?prune=true&dryRun=true');
    expect(changed.body.changes.filter((c: { kind: string }) => c.kind === 'group')).toEqual([
      { kind: 'group', name: 'support', action: 'update', fields: ['description', 'include'] },
      { kind: 'group', name: 'readers', action: 'delete', fields: [] },
    ]);
    const bad = await applyYaml({ sources: [everything], groups: [{ name: 'Bad Name', colour: 'red' }, 'support', { ...support }, { ...support }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(['groups[3].name', 'groups[0].colour', 'groups[0].name', 'groups[1]']);
    expect((await h.api.get('/api/v1/groups')).body.items.map((g: { name: string }) => g.name)).toEqual(['readers', 'support']);

    const pruned = await applyYaml({ sources: [everything], groups: [support] }, '?prune=true');
    expect(pruned.body.summary).toEqual({ create: 0, update: 0, unchanged: 2, delete: 1 });
    expect((await h.api.get('/api/v1/groups/readers')).status).toBe(404);
  });

  it('takes groups only from a caller that may manage them, and exports them only to one', async () => {
    const operator = (await h.api.post('/api/v1/api-keys', { name: 'ops', role: 'operator' })).body.key as string;
    const refused = await applyYaml({ sources: [everything], groups: [support] }, '?dryRun=true', operator);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: [{ path: 'groups', message: expect.stringContaining('groups:manage') }] });
    expect((await applyYaml({ sources: [everything] }, '?dryRun=true', operator)).status).toBe(200);
    expect(await exported(operator)).not.toHaveProperty('groups');
  });
});

describe('configuration as code: interceptors', () => {
  let h: Harness;
  const noEtc = { name: 'no-etc', description: 'Keeps agents out of /etc', kind: 'deny', scope: { tools: ['fs__*'] }, rules: [{ argument: 'path', pathUnder: '/etc', message: 'Files under /etc are off limits.' }] };
  const maskPii = { name: 'mask-pii', kind: 'redact', scope: { source: 'crm' }, detect: ['email', 'card'], patterns: [{ name: 'ticket', pattern: 'TCK-[0-9]{6}' }] };
  const policy = { name: 'policy', kind: 'webhook', phase: 'pre', order: -10, onError: 'allow', url: 'https://policy.example.com/check', signingSecret: 'POLICY_HOOK_KEY' };
  const applyYaml = (document: unknown, query = '', key = h.adminKey): Promise<ApiResponse> =>
    makeApi(h.url, key).request('POST', `/api/v1/config/apply${query}`, undefined, { raw: stringify(document), headers: { 'content-type': 'application/yaml' } });
  const exported = async (key = h.adminKey) => parse((await makeApi(h.url, key).request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/yaml' } })).body as string);
  const kinds = (answer: ApiResponse) => answer.body.changes.filter((change: { kind: string }) => change.kind === 'interceptor');

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.put('/api/v1/secrets/POLICY_HOOK_KEY', { value: 'policy-signing-value' })).status).toBeLessThan(300);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('creates the interceptors a file declares, each through the interceptors API (audited as it audits them), after a dry run that changes nothing', async () => {
    const dry = await applyYaml({ sources: [], interceptors: [noEtc, maskPii, policy] }, '?dryRun=true');
    expect(dry.body.changes).toEqual([
      { kind: 'interceptor', name: 'no-etc', action: 'create', fields: [] },
      { kind: 'interceptor', name: 'mask-pii', action: 'create', fields: [] },
      { kind: 'interceptor', name: 'policy', action: 'create', fields: [] },
    ]);
    expect((await h.api.get('/api/v1/interceptors')).body.items).toEqual([]);

    const applied = await applyYaml({ sources: [], interceptors: [noEtc, maskPii, policy] });
    expect([applied.status, applied.body.summary]).toEqual([200, { create: 3, update: 0, unchanged: 0, delete: 0 }]);
    expect((await h.api.get('/api/v1/interceptors/mask-pii')).body).toMatchObject({ ...maskPii, phase: 'post', timeoutMs: 1000, version: 1, createdBy: 'admin' });
    expect((await h.api.get('/api/v1/interceptors/policy')).body).toMatchObject({ ...policy, timeoutMs: 5000 });
    const audited = await h.sql<{ action: string; target_name: string }>(`SELECT action, target_name FROM audit_events WHERE target_type = 'interceptor' ORDER BY seq`);
    expect(audited).toEqual([
      { action: 'interceptor.created', target_name: 'no-etc' },
      { action: 'interceptor.created', target_name: 'mask-pii' },
      { action: 'interceptor.created', target_name: 'policy' },
    ]);
  });

  it('exports the interceptors as declared, without the signing secret’s value, and apply → export → apply changes nothing', async () => {
    const document = await exported();
    expect(document.interceptors).toEqual([maskPii, noEtc, policy]);
    expect(JSON.stringify(document)).not.toContain('policy-signing-value');
    const audits = await h.sql(`SELECT count(*) AS n FROM audit_events`);
    const again = await applyYaml(document);
    expect(again.body.summary).toEqual({ create: 0, update: 0, unchanged: 3, delete: 0 });
    expect(await h.sql(`SELECT count(*) AS n FROM audit_events`)).toEqual(audits);
    expect(await exported()).toEqual(document);
  });

  it('updates the fields that differ, removes with prune the interceptors left out, and lists every problem of bad entries at once', async () => {
    const trimmed = { ...maskPii, detect: ['email'], patterns: undefined };
    const changed = await applyYaml({ sources: [], interceptors: [noEtc, trimmed, { ...policy, kind: 'cap', phase: undefined, url: undefined, signingSecret: undefined, maxBytes: 4096 }] }, '?prune=true&dryRun=true');
    expect(kinds(changed)).toEqual([
      { kind: 'interceptor', name: 'no-etc', action: 'unchanged', fields: [] },
      { kind: 'interceptor', name: 'mask-pii', action: 'update', fields: ['detect', 'patterns'] },
      { kind: 'interceptor', name: 'policy', action: 'update', fields: ['kind', 'phase', 'timeoutMs', 'maxBytes', 'url', 'signingSecret'] },
    ]);

    const bad = await applyYaml({
      sources: [],
      interceptors: [{ name: 'Bad Name', kind: 'shred' }, 'no-etc', { ...noEtc, phase: 'post' }, { ...policy, name: 'policy-2', signingSecret: 'NOT_STORED' }, { ...noEtc }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([
      'interceptors[4].name',
      'interceptors[0].name',
      'interceptors[0].kind',
      'interceptors[1]',
      'interceptors[2].phase',
      'interceptors[3].signingSecret',
    ]);
    expect((await h.api.get('/api/v1/interceptors/no-etc')).body.version).toBe(1);

    const pruned = await applyYaml({ sources: [], interceptors: [noEtc, trimmed] }, '?prune=true');
    expect(pruned.body.summary).toEqual({ create: 0, update: 1, unchanged: 1, delete: 1 });
    expect((await h.api.get('/api/v1/interceptors/policy')).status).toBe(404);
    const mask = (await h.api.get('/api/v1/interceptors/mask-pii')).body;
    expect([mask.detect, mask.patterns, mask.version]).toEqual([['email'], undefined, 2]);
    const update = (await h.api.get('/api/v1/audit-events?targetType=interceptor&action=interceptor.updated')).body.items[0];
    expect(update.details).toEqual({ before: { detect: ['email', 'card'], patterns: maskPii.patterns }, after: { detect: ['email'], patterns: null } });
  });

  it('takes interceptors only from a caller that may manage them, and exports them only to one', async () => {
    const operator = (await h.api.post('/api/v1/api-keys', { name: 'ops', role: 'operator' })).body.key as string;
    const refused = await applyYaml({ sources: [], interceptors: [noEtc] }, '?dryRun=true', operator);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: [{ path: 'interceptors', message: expect.stringContaining('interceptors:manage') }] });
    expect((await applyYaml({ sources: [] }, '?dryRun=true', operator)).status).toBe(200);
    expect(await exported(operator)).not.toHaveProperty('interceptors');
    expect((await exported()).interceptors.map((interceptor: { name: string }) => interceptor.name)).toEqual(['mask-pii', 'no-etc']);
  });
});

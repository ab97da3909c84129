import { makeApi, startHarness, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';

/** The examples of docs/interceptors.md. */
const NO_ETC = { name: 'no-etc', kind: 'deny', scope: { tools: ['fs__*'] }, rules: [{ argument: 'path', pathUnder: '/etc', message: 'Files under /etc are off limits.' }] };
const MASK_PII = { name: 'mask-pii', kind: 'redact', phase: 'post', scope: { source: 'crm' } };

const paths = (answer: ApiResponse) => (answer.body.error.details as { path: string }[]).map((detail) => detail.path);

/** Interceptors over REST: CRUD, every problem of bad input, the audit trail, who may manage them, and the stored row. */
describe('interceptors over REST', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('creates, lists, reads, changes and removes interceptors, each change audited with what it changed', async () => {
    const created = await h.api.post('/api/v1/interceptors', NO_ETC);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'no-etc',
      description: '',
      kind: 'deny',
      phase: 'pre',
      order: 0,
      scope: { tools: ['fs__*'] },
      onError: 'deny',
      timeoutMs: 1000,
      enabled: true,
      rules: NO_ETC.rules,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: 'admin',
      updatedBy: 'admin',
    });
    expect((await h.api.post('/api/v1/interceptors', MASK_PII)).body).toMatchObject({ kind: 'redact', phase: 'post', scope: { source: 'crm' } });
    expect((await h.api.post('/api/v1/interceptors', { name: 'trim', kind: 'cap', maxBytes: 65536, maxBlocks: 20, order: -10 })).status).toBe(201);

    const [row] = await h.sql(`SELECT kind, phase, "order", scope, settings, on_error, timeout_ms, enabled, version FROM interceptors WHERE name = 'no-etc'`);
    expect(row).toEqual({ kind: 'deny', phase: 'pre', order: 0, scope: { tools: ['fs__*'] }, settings: { rules: NO_ETC.rules }, on_error: 'deny', timeout_ms: 1000, enabled: true, version: 1 });

    const first = await h.api.get('/api/v1/interceptors?limit=2');
    expect([first.body.items.map((i: { name: string }) => i.name), typeof first.body.nextCursor]).toEqual([['mask-pii', 'no-etc'], 'string']);
    const rest = await h.api.get(`/api/v1/interceptors?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect([rest.body.items.map((i: { name: string }) => i.name), rest.body.nextCursor]).toEqual([['trim'], null]);
    expect((await h.api.get('/api/v1/interceptors/trim')).body).toMatchObject({ kind: 'cap', phase: 'post', order: -10, maxBytes: 65536, maxBlocks: 20 });

    const changed = await h.api.patch('/api/v1/interceptors/trim', { maxBlocks: null, action: 'refuse', description: 'Keeps results small', version: 1 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ description: 'Keeps results small', maxBytes: 65536, action: 'refuse', version: 2 });
    expect(changed.body).not.toHaveProperty('maxBlocks');
    const stale = await h.api.patch('/api/v1/interceptors/trim', { description: 'again', version: 1 });
    expect([stale.status, stale.body.error.code, paths(stale)]).toEqual([409, 'STALE_VERSION', ['version']]);
    const unchanged = await h.api.patch('/api/v1/interceptors/trim', { description: 'Keeps results small' });
    expect(unchanged.body.version).toBe(2);
    const rekinded = await h.api.patch('/api/v1/interceptors/trim', { kind: 'output-schema', onMismatch: 'warn' });
    expect(rekinded.body).toMatchObject({ kind: 'output-schema', phase: 'post', onMismatch: 'warn', version: 3 });
    expect(Object.keys(rekinded.body)).not.toContain('maxBytes');

    const taken = await h.api.post('/api/v1/interceptors', { ...NO_ETC, rules: [{ message: 'Another' }] });
    expect([taken.status, taken.body.error]).toEqual([409, { code: 'INTERCEPTOR_EXISTS', message: 'An interceptor named "no-etc" exists already.', details: [{ path: 'name', message: 'is taken' }] }]);

    const removed = await h.api.delete('/api/v1/interceptors/trim');
    expect([removed.status, removed.body.name, removed.body.kind]).toEqual([200, 'trim', 'output-schema']);
    for (const answer of [await h.api.get('/api/v1/interceptors/trim'), await h.api.patch('/api/v1/interceptors/trim', { description: 'x' }), await h.api.delete('/api/v1/interceptors/trim')]) {
      expect([answer.status, answer.body.error.code]).toEqual([404, 'INTERCEPTOR_NOT_FOUND']);
    }

    const events = (await h.api.get('/api/v1/audit-events?targetType=interceptor&limit=100')).body.items as { action: string; targetName: string; details: Record<string, unknown>; actor: string }[];
    expect(events.map((event) => `${event.action} ${event.targetName}`).reverse()).toEqual([
      'interceptor.created no-etc',
      'interceptor.created mask-pii',
      'interceptor.created trim',
      'interceptor.updated trim',
      'interceptor.updated trim',
      'interceptor.removed trim',
    ]);
    expect(events.find((event) => event.action === 'interceptor.created' && event.targetName === 'no-etc')?.details).toEqual({ ...created.body, version: undefined, createdAt: undefined, updatedAt: undefined, createdBy: undefined, updatedBy: undefined });
    const updates = events.filter((event) => event.action === 'interceptor.updated').reverse();
    expect(updates.map((event) => event.details)).toEqual([
      { before: { description: '', maxBlocks: 20, action: null }, after: { description: 'Keeps results small', maxBlocks: null, action: 'refuse' } },
      { before: { kind: 'cap', maxBytes: 65536, action: 'refuse', onMismatch: null }, after: { kind: 'output-schema', maxBytes: null, action: null, onMismatch: 'warn' } },
    ]);
  });

  it('refuses what a careless or hostile caller sends, each answer listing every problem', async () => {
    const post = (body: unknown) => h.api.request('POST', '/api/v1/interceptors', body);

    const wrongTypes = await post({ name: 7, description: ['x'], kind: 'deny', phase: 1, order: '1', scope: 'everywhere', onError: true, timeoutMs: 0, enabled: 'yes', rules: { message: 'x' } });
    expect([wrongTypes.status, wrongTypes.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(paths(wrongTypes)).toEqual(['name', 'description', 'phase', 'order', 'scope', 'onError', 'timeoutMs', 'enabled', 'rules']);

    const unknownKind = await post({ name: 'x', kind: 'shred', colour: 'red', kinds: 'deny' });
    expect(unknownKind.body.error.details).toEqual([
      { path: 'colour', message: 'is not a known property' },
      { path: 'kinds', message: 'is not a known property; did you mean `kind`?' },
      { path: 'kind', message: 'must be one of defaults, lock, deny, redact, cap, output-schema, webhook, approval' },
    ]);

    const badPatterns = await post({
      name: 'patterns',
      kind: 'deny',
      rules: [
        { argument: 'q', pattern: '(unclosed', message: 'x' },
        { argument: 'q', pattern: '(\\w+)\\s\\1', message: 'backreference' },
        { argument: 'path', pathUnder: 'etc', message: 'relative' },
        { argument: 'n', range: { min: 10, max: 1 }, message: 'upside down' },
        { argument: 'q', equals: 1, pattern: 'a', message: 'two conditions' },
        { pattern: 'a', message: 'no argument' },
        {},
      ],
    });
    expect(paths(badPatterns)).toEqual(['rules[0].pattern', 'rules[1].pattern', 'rules[2].pathUnder', 'rules[3].range', 'rules[4]', 'rules[5].pattern', 'rules[6].message']);

    // Catastrophic in a backtracking engine, linear in RE2: taken, and checked in no time.
    const started = Date.now();
    const catastrophic = await post({ name: 'catastrophic', kind: 'deny', rules: [{ argument: 'q', pattern: '^(a+)+$', message: 'x' }, { argument: 'q', pattern: '(x+x+)+y', message: 'y' }] });
    expect(catastrophic.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);

    const phases = await post({ name: 'phases', kind: 'redact', phase: 'pre', detect: ['email', 'ssn'], patterns: [{ name: 'all', pattern: '.*' }] });
    expect(phases.body.error.details).toEqual([
      { path: 'phase', message: 'must be post for a redact interceptor (pre given)' },
      { path: 'detect[1]', message: 'must be one of email, phone, card, iban, secret' },
      { path: 'patterns[0].pattern', message: 'matches empty text: a mask needs something to replace' },
    ]);
    expect((await post({ name: 'no-phase', kind: 'webhook', url: 'https://hook.example.com', signingSecret: 'HOOK_KEY' })).body.error.details).toEqual([
      { path: 'phase', message: 'is required for a webhook interceptor: pre or post' },
      { path: 'signingSecret', message: 'names no stored secret: store its value first (PUT /api/v1/secrets/HOOK_KEY)' },
    ]);

    const hostile = await post({ name: 'hostile', kind: 'webhook', phase: 'pre', url: 'https://admin:pw@hook.example.com/?token=t', signingSecret: 'sk_live_123 value', timeoutMs: 600_000 });
    expect(paths(hostile)).toEqual(['timeoutMs', 'url', 'signingSecret']);
    expect(JSON.stringify(hostile.body)).not.toContain('pw@');
    const metadata = await post({ name: 'metadata', kind: 'webhook', phase: 'post', url: 'http://169.254.169.254/latest/meta-data', signingSecret: 'HOOK_KEY' });
    expect(paths(metadata)).toEqual(['signingSecret', 'url']);

    const flood = await post({ name: 'flood', kind: 'deny', rules: Array.from({ length: 10_000 }, () => ({ message: 'x' })) });
    expect([flood.status, flood.body.error.code]).toEqual([400, 'BODY_TOO_MANY_VALUES']);
    const many = await post({ name: 'many', kind: 'deny', rules: Array.from({ length: 1_000 }, () => ({ message: 'x' })), scope: { tools: Array.from({ length: 500 }, () => 'x') } });
    expect(many.body.error.details).toEqual([
      { path: 'scope.tools', message: 'must hold at most 100 patterns' },
      { path: 'rules', message: 'must hold at most 100 rules' },
    ]);
    const huge = await h.api.request('POST', '/api/v1/interceptors', undefined, { raw: JSON.stringify({ name: 'huge', kind: 'lock', arguments: { blob: 'x'.repeat(2 * 1024 * 1024) } }) });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const big = await post({ name: 'big', kind: 'lock', arguments: { blob: 'x'.repeat(100_000) } });
    expect(big.body.error.details).toEqual([{ path: 'arguments', message: 'must take at most 16384 bytes of JSON (100011 given)' }]);
    const deeper = await post({ name: 'deeper', kind: 'deny', rules: [{ argument: 'q', equals: JSON.parse('['.repeat(500) + ']'.repeat(500)), message: 'deep' }] });
    expect([deeper.status, deeper.body.error.code]).toEqual([400, 'BODY_TOO_DEEP']);
    const deep = await post({ name: 'deep', kind: 'deny', rules: [{ argument: 'q', equals: JSON.parse('['.repeat(50) + ']'.repeat(50)), message: 'deep' }] });
    expect(deep.status).toBe(201);

    for (const body of ['[1, 2]', '"deny"', 'null', '42']) {
      const answer = await h.api.request('POST', '/api/v1/interceptors', undefined, { raw: body });
      expect([body, answer.status, answer.body.error.code]).toEqual([body, 400, expect.stringMatching(/VALIDATION_FAILED|INVALID_JSON/)]);
    }

    const patch = await h.api.patch('/api/v1/interceptors/catastrophic', { name: 'renamed', kind: 'cap', rules: [], version: 'latest' });
    expect(paths(patch)).toEqual(['name', 'version', 'rules']);
    const whole = await h.api.patch('/api/v1/interceptors/catastrophic', { kind: 'cap' });
    expect(whole.body.error.details).toEqual([{ path: 'body', message: 'a cap interceptor needs at least one limit: maxBytes, maxBlocks or maxTextLength' }]);

    const names = (await h.api.get('/api/v1/interceptors')).body.items.map((interceptor: { name: string }) => interceptor.name);
    // Only the two good ones were stored, beside the first test's.
    expect(names).toEqual(['catastrophic', 'deep', 'mask-pii', 'no-etc']);
  });

  it('takes a webhook once its signing secret is stored, and never shows the secret’s value', async () => {
    const hook = { name: 'policy', kind: 'webhook', phase: 'pre', url: `${h.url}/nowhere`, signingSecret: 'POLICY_HOOK_KEY' };
    expect(paths(await h.api.post('/api/v1/interceptors', hook))).toEqual(['signingSecret']);
    expect((await h.api.put('/api/v1/secrets/POLICY_HOOK_KEY', { value: 'hook-signing-value' })).status).toBeLessThan(300);
    const created = await h.api.post('/api/v1/interceptors', hook);
    expect(created.body).toMatchObject({ kind: 'webhook', timeoutMs: 5000, signingSecret: 'POLICY_HOOK_KEY' });
    const audit = await h.api.get('/api/v1/audit-events?targetType=interceptor&target=policy');
    expect(JSON.stringify([created.body, audit.body, await h.sql('SELECT * FROM interceptors')])).not.toContain('hook-signing-value');
  });

  it('is for those who may manage interceptors (admins) only', async () => {
    for (const role of ['operator', 'agent', 'auditor', 'reviewer']) {
      const key = (await h.api.post('/api/v1/api-keys', { name: `${role}-key`, role })).body.key as string;
      const api = makeApi(h.url, key);
      for (const [method, path] of [
        ['GET', '/api/v1/interceptors'],
        ['POST', '/api/v1/interceptors'],
        ['GET', '/api/v1/interceptors/no-etc'],
        ['PATCH', '/api/v1/interceptors/no-etc'],
        ['DELETE', '/api/v1/interceptors/no-etc'],
      ] as const) {
        const answer = await api.request(method, path, method === 'POST' || method === 'PATCH' ? NO_ETC : undefined);
        expect([role, method, path, answer.status, answer.body.error.code]).toEqual([role, method, path, 403, 'FORBIDDEN']);
      }
    }
    expect((await h.api.get('/api/v1/interceptors/no-etc')).body.version).toBe(1);
  });
});

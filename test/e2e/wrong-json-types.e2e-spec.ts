import fc from 'fast-check';
import { stringify } from 'yaml';
import { startHarness, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * Every body field of every write endpoint, nested ones included, replaced by a value of a JSON
 * type the field does not take: the answer is a 400 in the one error shape naming that field,
 * never a 5xx. The types each field takes are the REST contract's (openapi.yaml), null only where
 * it documents the field nullable.
 */

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'number', 'string', 'array', 'object'];

/** A field's path (`a.b`, `a[0]`, as error details name them) and the JSON types it takes. */
interface Field {
  path: string;
  takes: readonly JsonType[];
}

const text = fc.string({ maxLength: 12 });
const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
const jsonValue = fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), leaf, { maxKeys: 3 }));

function valueOf(type: JsonType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.oneof(fc.integer({ min: -1000, max: 10_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'string':
      return fc.oneof(text, fc.constantFrom('', 'abc', '1', 'true', 'null', '{}', '[]'));
    case 'array':
      return fc.array(jsonValue, { maxLength: 3 });
    case 'object':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), jsonValue, { maxKeys: 3 });
  }
}

const S: readonly JsonType[] = ['string'];
const S0: readonly JsonType[] = ['string', 'null'];
const N: readonly JsonType[] = ['number'];
const N0: readonly JsonType[] = ['number', 'null'];
const B: readonly JsonType[] = ['boolean'];
const O: readonly JsonType[] = ['object'];
const A: readonly JsonType[] = ['array'];
const A0: readonly JsonType[] = ['array', 'null'];

/** The settings registration and update share (RegisterSourceDto less name and transport). */
const SOURCE_SETTINGS: Field[] = [
  { path: 'description', takes: S0 },
  { path: 'lifecycle', takes: S },
  { path: 'pluginDir', takes: S0 },
  { path: 'packageIndex', takes: N },
  { path: 'command', takes: S0 },
  { path: 'args', takes: A0 },
  { path: 'args[0]', takes: S },
  { path: 'cwd', takes: S0 },
  { path: 'sandbox', takes: O },
  { path: 'sandbox.network', takes: B },
  { path: 'sandbox.readOnlyPaths', takes: A },
  { path: 'sandbox.readOnlyPaths[0]', takes: S },
  { path: 'sandbox.writablePaths', takes: A },
  { path: 'sandbox.writablePaths[0]', takes: S },
  { path: 'url', takes: S0 },
  { path: 'headers', takes: O },
  { path: 'headers.X-Team', takes: S },
  { path: 'env', takes: O },
  { path: 'env.REGION', takes: S },
  { path: 'readOnly', takes: B },
  { path: 'timeoutMs', takes: N },
  { path: 'maxConcurrency', takes: N },
  { path: 'rateLimitPerMinute', takes: N0 },
  { path: 'refreshIntervalSeconds', takes: N },
  { path: 'circuitBreaker', takes: O },
  { path: 'circuitBreaker.failureThreshold', takes: N },
  { path: 'circuitBreaker.resetTimeoutMs', takes: N },
  { path: 'enabled', takes: B },
];
const REGISTRATION: Field[] = [{ path: 'name', takes: S }, { path: 'transport', takes: S }, ...SOURCE_SETTINGS];
const UPDATE: Field[] = [...SOURCE_SETTINGS, { path: 'version', takes: N }];
const KEY: Field[] = [
  { path: 'name', takes: S },
  { path: 'role', takes: S },
  { path: 'owner', takes: S0 },
  { path: 'expiresAt', takes: S0 },
  { path: 'allowedSources', takes: A0 },
  { path: 'allowedSources[0]', takes: S },
  { path: 'allowedTools', takes: A0 },
  { path: 'allowedTools[0]', takes: S },
  { path: 'rateLimitPerMinute', takes: N0 },
];
const under = (prefix: string, fields: Field[]): Field[] => fields.map((f) => ({ path: `${prefix}.${f.path}`, takes: f.takes }));
const CONFIG: Field[] = [
  { path: 'sources', takes: A },
  { path: 'sources[0]', takes: O },
  ...under('sources[0]', REGISTRATION),
  { path: 'keys', takes: A },
  { path: 'keys[0]', takes: O },
  ...under('keys[0]', [...KEY, { path: 'key', takes: S }]),
];
const SECRET: Field[] = [{ path: 'value', takes: S }];
/** Invoke's members take null as "absent" (its plain-body rule); `arguments.message` is the echo tool's own. */
const INVOKE: Field[] = [
  { path: 'arguments', takes: ['object', 'null'] },
  { path: 'arguments.message', takes: S },
  { path: 'timeoutMs', takes: N0 },
  { path: 'inputResponses', takes: ['object', 'null'] },
  { path: 'requestState', takes: S0 },
];

/** Every (field, type it does not take) pair. */
function wrongTypings(fields: Field[]): Array<{ path: string; type: JsonType }> {
  return fields.flatMap((field) => JSON_TYPES.filter((type) => !field.takes.includes(type)).map((type) => ({ path: field.path, type })));
}

/** `a.b[0].c` as steps. */
function stepsOf(path: string): Array<string | number> {
  const steps: Array<string | number> = [];
  for (const part of path.split('.')) {
    const match = /^([^[]+)((?:\[\d+\])*)$/.exec(part)!;
    steps.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) steps.push(Number(index[1]));
  }
  return steps;
}

/** A deep copy of `body` with the value at `path` set, containers on the way made as needed. */
function withValue(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  const steps = stepsOf(path);
  let at = copy;
  steps.slice(0, -1).forEach((step, i) => {
    const next = steps[i + 1]!;
    const current = at[step];
    const fits = typeof next === 'number' ? Array.isArray(current) : current !== null && typeof current === 'object' && !Array.isArray(current);
    if (!fits) at[step] = typeof next === 'number' ? [] : {};
    at = at[step] as Record<string | number, unknown>;
  });
  at[steps[steps.length - 1]!] = value;
  return copy;
}

/** A detail names the field: its own path, one under it, or the list it is an element of. */
function names(detailPath: string, fieldPath: string): boolean {
  return detailPath === fieldPath || detailPath.startsWith(`${fieldPath}.`) || detailPath.startsWith(`${fieldPath}[`) || fieldPath.startsWith(`${detailPath}[`);
}

/** A map's entry (`env.REGION`) may be named by the map's own problem, whose message names the entry. */
function namesEntry(detail: { path: string; message: string }, fieldPath: string): boolean {
  const steps = stepsOf(fieldPath);
  const last = steps[steps.length - 1];
  return typeof last === 'string' && fieldPath === `${detail.path}.${last}` && detail.message.includes(last);
}

/**
 * A 400 in the one error shape (`{error: {code, message, details: [{path, message}]}}`) whose
 * details name every path; or, for a dry run (`report`), its 200 report: not valid, the problems
 * naming every path, and no connection tried.
 */
function expectRefused(response: ApiResponse, paths: string[], codes: readonly string[] = ['VALIDATION_FAILED'], answer: 'error' | 'report' = 'error'): void {
  const context = JSON.stringify({ paths, status: response.status, body: response.body });
  let details: unknown;
  if (answer === 'report') {
    const report = response.body as { valid?: unknown; problems?: unknown; connection?: unknown };
    if (response.status !== 200 || report.valid !== false || report.connection !== null) throw new Error(`expected a report of problems without a connection: ${context}`);
    details = report.problems;
  } else {
    if (response.status !== 400) throw new Error(`expected 400: ${context}`);
    const error = (response.body as { error?: { code?: unknown; message?: unknown; details?: unknown } }).error;
    if (!error || typeof error.message !== 'string' || !codes.includes(error.code as string)) throw new Error(`not the error shape: ${context}`);
    details = error.details;
  }
  if (!Array.isArray(details) || !details.every((d: { path?: unknown; message?: unknown }) => typeof d.path === 'string' && typeof d.message === 'string' && d.message.length > 0)) {
    throw new Error(`details without path or message: ${context}`);
  }
  const named = details as Array<{ path: string; message: string }>;
  for (const path of paths) {
    if (!named.some((d) => names(d.path, path) || namesEntry(d, path))) throw new Error(`${path} is not among the details: ${context}`);
  }
}

const topLevel = (path: string) => String(stepsOf(path)[0]);

/**
 * Each pair once, with a few generated values, and then several fields at once (each named
 * in the answer). `send` answers for a body.
 */
async function checkEndpoint(
  fields: Field[],
  base: unknown,
  send: (body: unknown) => Promise<ApiResponse>,
  options: { codes?: (paths: string[]) => readonly string[]; answer?: 'error' | 'report'; runsEach?: number; runsTogether?: number } = {},
): Promise<void> {
  // Every failing pair is reported, not only the first.
  const failures: string[] = [];
  const record = (details: { failed: boolean; errorInstance: unknown }) => {
    if (details.failed) failures.push(details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance));
  };
  for (const { path, type } of wrongTypings(fields)) {
    record(
      await fc.check(
        fc.asyncProperty(valueOf(type), async (value) => {
          expectRefused(await send(withValue(base, path, value)), [path], options.codes?.([path]), options.answer);
        }),
        { numRuns: options.runsEach ?? 2 },
      ),
    );
  }
  const pairs = wrongTypings(fields);
  const several = fc
    .uniqueArray(fc.constantFrom(...pairs), { minLength: 2, maxLength: 4, selector: (pair) => topLevel(pair.path) })
    .chain((chosen) => fc.tuple(fc.constant(chosen), fc.tuple(...chosen.map((pair) => valueOf(pair.type)))));
  if ((options.runsTogether ?? 25) > 0) {
    record(
      await fc.check(
        fc.asyncProperty(several, async ([chosen, values]) => {
          let body = base;
          chosen.forEach((pair, i) => (body = withValue(body, pair.path, values[i])));
          expectRefused(
            await send(body),
            chosen.map((pair) => pair.path),
            options.codes?.(chosen.map((pair) => pair.path)),
            options.answer,
          );
        }),
        { numRuns: options.runsTogether ?? 25 },
      ),
    );
  }
  if (failures.length > 0) throw new Error(`${failures.length} failing:\n${failures.join('\n')}`);
}

describe('request bodies with values of the wrong JSON type', () => {
  let h: Harness;
  const stdio = { name: 'typed', transport: 'stdio', description: 'd', command: 'node', args: [EVERYTHING], enabled: false };
  const remote = { name: 'typed-remote', transport: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'a' }, enabled: false };
  const key = { name: 'typed-key', role: 'agent', owner: 'me', allowedSources: ['a*'], allowedTools: ['b*'], rateLimitPerMinute: 60 };

  beforeAll(async () => {
    h = await startHarness();
    const registered = await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', command: 'node', args: [EVERYTHING], lifecycle: 'singleton' });
    expect(registered.status).toBe(201);
    expect(registered.body.toolCount).toBeGreaterThan(0);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  it('POST /sources names the field, for a stdio and a remote registration', async () => {
    for (const base of [stdio, remote]) await checkEndpoint(REGISTRATION, base, (body) => h.api.post('/api/v1/sources', body));
    expect((await h.api.get('/api/v1/sources')).body.items.map((s: { name: string }) => s.name)).toEqual(['everything']);
  }, 300_000);

  it('POST /sources/validate reports the field and runs nothing', async () => {
    // A dry run answers its problems as a 200 report (the REST contract); with a wrong type it connects to nothing.
    await checkEndpoint(REGISTRATION, stdio, (body) => h.api.post('/api/v1/sources/validate', body), { answer: 'report' });
  }, 300_000);

  it('PATCH /sources/{name} names the field and changes nothing', async () => {
    const before = (await h.api.get('/api/v1/sources/everything')).body;
    await checkEndpoint(UPDATE, { description: 'x', timeoutMs: 5000 }, (body) => h.api.patch('/api/v1/sources/everything', body));
    expect((await h.api.get('/api/v1/sources/everything')).body.version).toBe(before.version);
  }, 300_000);

  it('POST /config/apply names the field, as JSON and as YAML', async () => {
    const document = { sources: [stdio], keys: [{ ...key, key: '${env:NOT_SET}' }] };
    await checkEndpoint(CONFIG, document, (body) => h.api.post('/api/v1/config/apply?dryRun=true', body));
    await checkEndpoint(
      CONFIG,
      document,
      (body) => h.api.request('POST', '/api/v1/config/apply?dryRun=true', undefined, { raw: stringify(body), headers: { 'content-type': 'application/yaml' } }),
      { runsEach: 1, runsTogether: 10 },
    );
  }, 300_000);

  it('POST /api-keys names the field', async () => {
    await checkEndpoint(KEY, key, (body) => h.api.post('/api/v1/api-keys', body));
    const keys = (await h.api.get('/api/v1/api-keys')).body.items;
    expect(keys.filter((k: { name: string }) => k.name === 'typed-key')).toEqual([]);
  }, 300_000);

  it('PUT /secrets/{name} names the field', async () => {
    await checkEndpoint(SECRET, { value: 's3cret' }, (body) => h.api.put('/api/v1/secrets/TYPED', body), { runsEach: 5, runsTogether: 0 });
    expect((await h.api.get('/api/v1/secrets')).body.items).toEqual([]);
  }, 300_000);

  it('POST /tools/{name}/invoke names the field; the arguments are checked against the tool schema', async () => {
    // A wrong type for a member of the request is VALIDATION_FAILED; one inside `arguments` (or
    // `arguments` not an object) is INVALID_ARGUMENTS, found by checking them against the tool.
    const codes = (paths: string[]) => (paths.some((p) => p.startsWith('arguments')) && paths.every((p) => p.startsWith('arguments')) ? ['INVALID_ARGUMENTS'] : ['VALIDATION_FAILED']);
    const invoke = (body: unknown) => h.api.post('/api/v1/tools/everything__echo/invoke', body);
    const calls = async () => (await h.sql<{ n: string }>(`SELECT count(*) AS n FROM executions WHERE status = 'succeeded'`))[0]!.n;
    const before = await calls();
    await checkEndpoint(INVOKE, { arguments: { message: 'hi' }, timeoutMs: 5000 }, invoke, {
      codes,
      // With another member wrong too, the request is refused before its arguments are looked at.
      runsTogether: 0,
    });
    await checkEndpoint(
      INVOKE.filter((f) => !f.path.startsWith('arguments')),
      { arguments: { message: 'hi' }, timeoutMs: 5000 },
      invoke,
    );
    expect(await calls()).toBe(before);
    // The base body itself is a good call.
    const ok = await invoke({ arguments: { message: 'hi' }, timeoutMs: 5000 });
    expect(ok.status).toBe(200);
  }, 300_000);
});

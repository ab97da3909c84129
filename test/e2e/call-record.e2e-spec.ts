import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';
import { mcpAnswer } from '../helpers/mcp-answer.js';

/**
 * Every call that reaches an upstream is on the record, with the arguments it was sent, whatever
 * keys and text they hold: what PostgreSQL cannot store (NUL, lone surrogates) is refused before
 * the call; an upstream's unstorable result is escaped in the stored copy only; a secret the
 * upstream echoes is replaced by a marker in the record. Upstream: the hand-written hostile fixture,
 * whose echo_keys logs every call it receives before answering.
 */
const SECRET_VALUE = 'tok-4f9c2b7e1d-super-secret';
const EXECUTION = 'dev.toolplane/execution';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** Text of any code points, lone surrogates and NUL included; keys that look like Object's own. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  // Often what a store refuses: NUL, surrogates alone or paired, next to ordinary text.
  fc.string({ unit: fc.constantFrom('a', ' ', '\u0000', '\ud800', '\udc00', '😀', 'é', '"', '\\'), maxLength: 6 }),
);
const key = fc.oneof(anyText, fc.constantFrom('constructor', 'toString', 'hasOwnProperty', '', 'a.b', '[0]'));
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, anyText, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 3 }),
})).value;
const args = fc.dictionary(key, value, { maxKeys: 4 });

/** Whether a `__proto__` key is anywhere in the value (fast-check generates it among its special strings). */
const hasPrototypeKey = (input: unknown): boolean =>
  input !== null && typeof input === 'object' && Object.entries(input).some(([k, inner]) => k === '__proto__' || hasPrototypeKey(inner));

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
const allStorable = (input: unknown): boolean => {
  if (typeof input === 'string') return storable(input);
  if (input === null || typeof input !== 'object') return true;
  return Object.entries(input).every(([k, inner]) => storable(k) && allStorable(inner));
};

describe('the call record', () => {
  let h: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-call-record-'));
  const callLog = join(dir, 'calls.jsonl');
  // The sandboxed plugin (uid 65534) appends to the log.
  chmodSync(dir, 0o777);

  /** The calls the upstream received, in order. */
  const received = (): { id: number; arguments: unknown }[] =>
    existsSync(callLog)
      ? readFileSync(callLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  const stored = async (id: string) => (await h.sql('SELECT status, arguments, result, error FROM executions WHERE id = $1', [id]))[0];

  const mcpCall = async (name: string, callArgs: unknown, id = 1) => {
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: callArgs, _meta: { [EXECUTION]: true } } }),
    });
    return { status: response.status, body: mcpAnswer(await response.text()) };
  };

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.put('/api/v1/secrets/api-token', { value: SECRET_VALUE })).status).toBe(201);
    const registered = await h.api.post('/api/v1/sources', {
      name: 'rec',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs')],
      env: { HOSTILE_TOOLS: 'echo_keys,nul_result,echo_env', HOSTILE_CALL_LOG: callLog, API_TOKEN: '${secret:api-token}' },
      sandbox: { writablePaths: [dir] },
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);
    expect(registered.body.health).toBe('healthy');
  });

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses NUL and lone surrogates in argument keys and values before the call, on REST and MCP, and records the refusal', async () => {
    const before = received().length;
    const cases = [{ 'k\u0000ey': 1 }, { text: 'a\u0000b' }, { lone: 'x\ud800' }, { nested: [{ '\udc00': true }] }];
    for (const bad of cases) {
      const rest = await h.api.post('/api/v1/tools/rec__echo_keys/invoke', { arguments: bad });
      expect({ status: rest.status, code: rest.body.error?.code }).toEqual({ status: 400, code: 'UNSTORABLE_ARGUMENTS' });
      expect(rest.body.error.details.length).toBeGreaterThan(0);
      const row = await stored(rest.body.execution.id);
      expect(row.status).toBe('invalid_arguments');
      expect(allStorable(row.arguments)).toBe(true);

      const mcp = await mcpCall('rec__echo_keys', bad);
      expect(mcp.body.result.isError).toBe(true);
      expect(mcp.body.result._meta[EXECUTION]).toMatchObject({ status: 'invalid_arguments', code: 'UNSTORABLE_ARGUMENTS' });
    }
    expect(received().length).toBe(before);
  });

  it("answers an upstream's NUL and lone surrogates as they came, and records them escaped", async () => {
    const response = await h.api.post('/api/v1/tools/rec__nul_result/invoke', { arguments: {} });
    expect(response.status).toBe(200);
    expect(response.body.result.structuredContent).toEqual({ 'key\u0000nul': 'value\u0000nul', lone: '\udc00', nested: [{ '\ud800': 'x' }] });
    const row = await stored(response.body.id);
    expect(row.status).toBe('succeeded');
    expect(row.result.structuredContent).toEqual({ 'key\\u0000nul': 'value\\u0000nul', lone: '\\udc00', nested: [{ '\\ud800': 'x' }] });
    expect(row.result.content[0].text).toBe('nul\\u0000in text, lone \\ud800 surrogate');
  });

  it('replaces a secret the upstream echoes by a marker in the record and in the answer', async () => {
    const response = await h.api.post('/api/v1/tools/rec__echo_env/invoke', { arguments: { name: 'API_TOKEN' } });
    expect(response.status).toBe(200);
    // The caller may call the tool, not read the source's credentials.
    expect(response.body.result.content[0].text).toBe('[secret:api-token]');
    const row = await stored(response.body.id);
    expect(row.result.content[0].text).toBe('[secret:api-token]');
    const [{ n }] = await h.sql<{ n: number }>('SELECT count(*)::int AS n FROM executions WHERE result::text LIKE $1', [`%${SECRET_VALUE}%`]);
    expect(n).toBe(0);
  });

  it('records, for every call the upstream received, exactly the arguments it was sent (REST and MCP, any keys and text)', async () => {
    let reached = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(args, fc.boolean(), async (sent, viaMcp) => {
        const before = received().length;
        // A key that would reach an object's prototype never gets past the body parser, on either endpoint.
        if (hasPrototypeKey(sent)) {
          const answer = viaMcp ? await mcpCall('rec__echo_keys', sent) : await h.api.post('/api/v1/tools/rec__echo_keys/invoke', { arguments: sent });
          expect(answer.status).toBe(400);
          expect(viaMcp ? answer.body.error.data.code : answer.body.error.code).toBe('UNSAFE_JSON_KEY');
          expect(received().slice(before)).toEqual([]);
          refused++;
          return;
        }
        let id: string;
        let ok: boolean;
        if (viaMcp) {
          const answer = await mcpCall('rec__echo_keys', sent);
          const meta = answer.body.result._meta[EXECUTION];
          id = meta.id;
          ok = meta.status === 'succeeded';
        } else {
          const answer = await h.api.post('/api/v1/tools/rec__echo_keys/invoke', { arguments: sent });
          id = answer.status === 200 ? answer.body.id : answer.body.execution.id;
          ok = answer.status === 200;
        }
        const calls = received().slice(before);
        if (!ok) {
          refused++;
          expect(allStorable(sent)).toBe(false);
          expect(calls).toEqual([]);
          return;
        }
        reached++;
        expect(calls).toHaveLength(1);
        expect(calls[0].arguments).toEqual(sent);
        expect((await stored(id)).arguments).toEqual(sent);
      }),
      { numRuns: 60 },
    );
    expect(reached).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(0);
  });
});

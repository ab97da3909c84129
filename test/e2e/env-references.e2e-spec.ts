import { join } from 'node:path';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

/**
 * `${env:NAME}` hands a source nothing Toolplane reads itself (its database's password, its trace
 * exporter's headers, Node.js and proxy settings) unless the operator allows the variable by name,
 * never Toolplane's own settings; refused at registration with every bad reference listed, and again
 * when a stored source is connected. What a plugin sends back holds no encoding of such a value.
 */
describe('${env:NAME} references to what Toolplane reads itself', () => {
  const PG_PASSWORD = 'pg pass/5e1f+0c2a&envref';
  const OTLP_HEADERS = 'authorization=Bearer otlp-9d2b7a41-envref';
  let h: Harness;

  const hostile = (name: string, env: Record<string, string>) => ({
    name,
    transport: 'stdio',
    lifecycle: 'singleton',
    command: process.execPath,
    args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
    env: { HOSTILE_TOOLS: 'echo_env,stderr_env', ...env },
    refreshIntervalSeconds: 0,
  });

  beforeAll(async () => {
    h = await startHarness({ PGPASSWORD: PG_PASSWORD, OTEL_EXPORTER_OTLP_HEADERS: OTLP_HEADERS, TOOLPLANE_ENV_REFERENCES_ALLOW: 'PGPASSWORD' });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('refuses them at registration and validation, every one by its path, whether set or not', async () => {
    const body = hostile('refused', {
      TRACES: '${env:OTEL_EXPORTER_OTLP_HEADERS}',
      NODE: 'x ${env:NODE_OPTIONS}',
      PROXY: '${env:https_proxy}',
      OWN: '${env:TOOLPLANE_ADMIN_KEY}',
      DB: '${env:PGHOST}',
      FINE: 'literal',
    });
    const registered = await h.api.post('/api/v1/sources', body);
    expect({ status: registered.status, code: registered.body.error?.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    // A dry run reports the same problems in its report, and connects to nothing.
    const validated = await h.api.post('/api/v1/sources/validate', body);
    expect({ status: validated.status, valid: validated.body.valid, connection: validated.body.connection }).toEqual({ status: 200, valid: false, connection: null });
    for (const details of [registered.body.error.details, validated.body.problems] as { path: string; message: string }[][]) {
      expect(details.map((detail) => detail.path).sort()).toEqual(['env.DB', 'env.NODE', 'env.OWN', 'env.PROXY', 'env.TRACES']);
      expect(details.find((detail) => detail.path === 'env.TRACES')!.message).toMatch(/\$\{env:OTEL_EXPORTER_OTLP_HEADERS\}, a variable Toolplane itself reads .*TOOLPLANE_ENV_REFERENCES_ALLOW/);
    }
    expect(JSON.stringify([registered.body, validated.body])).not.toContain('otlp-9d2b7a41');
    const remote = await h.api.post('/api/v1/sources', { name: 'remote-refused', transport: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${env:OTEL_EXPORTER_OTLP_HEADERS}' } });
    expect(remote.status).toBe(400);
    expect(remote.body.error.details).toEqual([{ path: 'headers.Authorization', message: expect.stringContaining('${env:OTEL_EXPORTER_OTLP_HEADERS}') }]);
    expect((await h.api.get('/api/v1/sources')).body.items).toEqual([]);
  });

  it('passes a variable the operator allows by name, and no encoding of its value comes back', async () => {
    const registered = await h.api.post('/api/v1/sources', hostile('allowed', { DB_PASSWORD: '${env:PGPASSWORD}' }));
    expect(registered.status).toBe(201);
    const answers: string[] = [];
    const spellings = new Set([PG_PASSWORD]);
    for (const encoding of ['base64', 'base64url', 'hex', 'uri'] as const) {
      for (const around of ['', 'a', 'ab']) {
        const call = await h.api.post('/api/v1/tools/allowed__echo_env/invoke', { arguments: { name: 'DB_PASSWORD', encoding, around } });
        expect(call.status).toBe(200);
        expect(call.body.result.content[0].text).toContain('[secret:');
        answers.push(JSON.stringify(call.body));
        spellings.add(encodedValue(encoding, around, PG_PASSWORD));
      }
    }
    const logged = await h.api.post('/api/v1/tools/allowed__stderr_env/invoke', { arguments: { name: 'DB_PASSWORD', encoding: 'base64', around: 'a' } });
    expect(logged.status).toBe(200);
    const deadline = Date.now() + 5000;
    while (!/the value is \S*\[secret:/.test(h.process.logs()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.process.logs()).toMatch(/the value is \S*\[secret:/);

    const executions = (await h.api.get('/api/v1/executions?limit=100')).body.items as { id: string }[];
    expect(executions).toHaveLength(13);
    for (const { id } of executions) answers.push(JSON.stringify((await h.api.get(`/api/v1/executions/${id}`)).body));
    const rows = await h.sql<{ row: string }>('SELECT t::text AS row FROM executions t');
    const everything = [...answers, h.process.logs(), ...rows.map((r) => r.row)].join('\n');
    expect([...spellings].filter((spelling) => everything.includes(spelling))).toEqual([]);
  });

  it('refuses a stored reference when the source connects where the variable is not allowed', async () => {
    const peer = await h.startPeer({ TOOLPLANE_ENV_REFERENCES_ALLOW: '' });
    const call = await peer.api.post('/api/v1/tools/allowed__echo_env/invoke', { arguments: { name: 'DB_PASSWORD' } });
    expect(call.status).toBe(500);
    expect(call.body.error.message).toMatch(/\$\{env:PGPASSWORD\} referenced by env\.DB_PASSWORD is a variable Toolplane itself reads/);
    const refresh = await peer.api.post('/api/v1/sources/allowed/refresh', {});
    expect(refresh.status).toBe(502);
    expect(refresh.body.error.message).toContain('${env:PGPASSWORD}');
    expect(JSON.stringify([call.body, refresh.body])).not.toContain('5e1f');
    await peer.close();
  });
});

/**
 * What the plugin's `echo_env` spells `value` as, reduced to the characters that come from the value
 * alone: in base64 those whose six bits are all its own, whatever surrounds it.
 */
function encodedValue(encoding: 'base64' | 'base64url' | 'hex' | 'uri', around: string, value: string): string {
  if (encoding === 'uri') return encodeURIComponent(value);
  if (encoding === 'hex') return Buffer.from(value).toString('hex');
  const before = Buffer.byteLength(around);
  const whole = Buffer.from(`${around}${value}${around}`).toString(encoding);
  return whole.slice(Math.ceil((8 * before) / 6), Math.floor((8 * (before + Buffer.byteLength(value))) / 6));
}

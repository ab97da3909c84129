import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/** Every metric Toolplane exposes besides the process's own (`toolplane_process_*`, `toolplane_nodejs_*`). */
const TOOLPLANE_METRICS = [
  'toolplane_tool_calls_total',
  'toolplane_tool_call_duration_seconds',
  'toolplane_upstream_call_duration_seconds',
  'toolplane_interceptor_decisions_total',
  'toolplane_interceptor_duration_seconds',
  'toolplane_approvals_total',
  'toolplane_approval_decision_seconds',
  'toolplane_refreshes_total',
  'toolplane_refresh_duration_seconds',
  'toolplane_execution_record_commit_seconds',
  'toolplane_execution_record_batch_rows',
  'toolplane_executions_purged_total',
  'toolplane_execution_purge_batch_seconds',
  'toolplane_execution_purge_pass_seconds',
  'toolplane_source_calls_in_flight',
  'toolplane_source_calls_queued',
  'toolplane_source_circuit_state',
  'toolplane_plugin_processes',
  'toolplane_upstream_connections',
  'toolplane_catalog_tools',
].sort();

/** A value of the exposition: `name{labels} value`, labels as written. */
function value(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `) || (labels === '' && l.startsWith(`${name} `)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * Prometheus metrics on `/metrics` for a key with ops:read: the names of the list and no other
 * toolplane_ ones, values that move with calls, refreshes and commits, and labels bounded to names
 * Toolplane issued (a caller's unknown tool name never becomes one).
 */
describe('metrics', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const scrape = async (key = h.adminKey) => {
    const response = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  it('serves exactly the listed metrics in the Prometheus text format, with the process metrics', async () => {
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    const names = [...new Set(text.split('\n').filter((l) => l.startsWith('# TYPE toolplane_')).map((l) => l.split(' ')[2]!))];
    const own = names.filter((name) => !name.startsWith('toolplane_process_') && !name.startsWith('toolplane_nodejs_')).sort();
    expect(own).toEqual(TOOLPLANE_METRICS);
    expect(names).toContain('toolplane_process_cpu_seconds_total');
    expect(names).toContain('toolplane_nodejs_eventloop_lag_seconds');
    // Names follow the conventions: snake case, a unit suffix for durations, _total for counters.
    for (const line of text.split('\n').filter((l) => l.startsWith('# TYPE toolplane_'))) {
      const [, , name, type] = line.split(' ');
      expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
    }
  });

  it('moves with calls, refreshes and commits, labelled by source and tool names Toolplane issued', async () => {
    const before = (await scrape()).text;
    for (let i = 0; i < 3; i++) expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: `m${i}` } })).status).toBe(200);
    expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 7 } })).status).toBe(400);
    expect((await h.api.post('/api/v1/tools/a-name-only-the-caller-chose/invoke', { arguments: {} })).status).toBe(404);
    expect((await h.api.post('/api/v1/sources/ev/refresh')).status).toBe(200);
    const after = (await scrape()).text;

    const calls = (labels: string, text: string) => value(text, 'toolplane_tool_calls_total', labels) ?? 0;
    expect(calls('source="ev",tool="ev__echo",channel="rest",status="succeeded"', after) - calls('source="ev",tool="ev__echo",channel="rest",status="succeeded"', before)).toBe(3);
    expect(calls('source="ev",tool="ev__echo",channel="rest",status="invalid_arguments"', after)).toBe(1);
    expect(calls('source="(unknown)",tool="(unknown)",channel="rest",status="rejected"', after)).toBe(1);
    expect(after).not.toContain('a-name-only-the-caller-chose');
    // Toolplane's time and the upstream's, apart: only calls that reached the upstream have the latter.
    expect(value(after, 'toolplane_upstream_call_duration_seconds_count', 'source="ev"')).toBe(3);
    expect(value(after, 'toolplane_tool_call_duration_seconds_count', 'source="ev",channel="rest",status="succeeded"')).toBe(3);
    // The refresh asked for, and any the source's own tools/list_changed announcements started meanwhile.
    const refreshes = (value(after, 'toolplane_refreshes_total', 'outcome="ok"') ?? 0) - (value(before, 'toolplane_refreshes_total', 'outcome="ok"') ?? 0);
    expect(refreshes).toBeGreaterThanOrEqual(1);
    expect(value(after, 'toolplane_refresh_duration_seconds_count', 'outcome="ok"')).toBe(value(after, 'toolplane_refreshes_total', 'outcome="ok"'));
    expect((value(after, 'toolplane_execution_record_batch_rows_sum') ?? 0) - (value(before, 'toolplane_execution_record_batch_rows_sum') ?? 0)).toBe(5);
    expect(value(after, 'toolplane_execution_record_commit_seconds_count')).toBeGreaterThanOrEqual(1);
    // State read at scrape time.
    expect(value(after, 'toolplane_source_circuit_state', 'source="ev"')).toBe(0);
    expect(value(after, 'toolplane_source_calls_in_flight', 'source="ev"')).toBe(0);
    expect(value(after, 'toolplane_upstream_connections', 'kind="pooled"')).toBe(1);
    expect((value(after, 'toolplane_plugin_processes', 'sandboxed="true"') ?? 0) + (value(after, 'toolplane_plugin_processes', 'sandboxed="false"') ?? 0)).toBe(1);
    // server-everything's 15 tools, simulate-research-query (which must run as a task) among them.
    expect(value(after, 'toolplane_catalog_tools', 'state="offered"')).toBe(15);
    expect(value(after, 'toolplane_catalog_tools', 'state="unusable"') ?? 0).toBe(0);
  });

  it('is for a key with ops:read only', async () => {
    const agent = (await h.api.post('/api/v1/api-keys', { name: 'agent', role: 'agent' })).body.key;
    const operator = (await h.api.post('/api/v1/api-keys', { name: 'operator', role: 'operator' })).body.key;
    expect((await scrape(agent)).status).toBe(403);
    expect((await scrape(operator)).status).toBe(200);
    expect((await makeApi(h.url, undefined).get('/metrics')).status).toBe(401);
  });
});

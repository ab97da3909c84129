import { join } from 'node:path';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

/**
 * Listening for tool changes is optional and never on the way: a 2026-07-28 server whose
 * `subscriptions/listen` answers plain JSON, fails, or never answers registers healthy with its
 * tools in well under a second, and is left to scheduled refreshes with one warning.
 */
describe('a server whose tool-change subscription misbehaves', () => {
  let h: Harness;
  const upstreams: RunningUpstream[] = [];

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all(upstreams.map((upstream) => upstream.stop()));
  });

  it.each(['json', 'error', 'hang'])('listen answered with %s: healthy with its tools at once, one warning', async (mode) => {
    const upstream = await startHttpUpstream((port) => [join(FIXTURES, 'listen-misbehaving-server.mjs'), '--port', String(port), SUITE_TAG], '/mcp', { LISTEN_MODE: mode });
    upstreams.push(upstream);
    const started = performance.now();
    const registered = await h.api.post('/api/v1/sources', { name: `listen-${mode}`, transport: 'streamable-http', url: upstream.url, refreshIntervalSeconds: 300 });
    const elapsed = performance.now() - started;
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 1, protocol: { era: 'modern' } });
    expect(elapsed).toBeLessThan(1000);
    const call = await h.api.post(`/api/v1/tools/listen-${mode}__echo/invoke`, { arguments: { message: 'still works' } });
    expect(call.status).toBe(200);

    const warning = `${upstream.url} did not accept a subscription to tool changes`;
    const deadline = Date.now() + 8000;
    while (!h.process.logs().includes(warning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.process.logs().split(warning).length - 1).toBe(1);
  }, 20_000);
});

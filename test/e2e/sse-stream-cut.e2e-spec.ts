import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING_TOOL_COUNT, startCountingProxy, startEverythingHttp, type CountingProxy, type RunningUpstream } from '../helpers/upstreams.js';

/** server-everything offers these only to a session whose client declared sampling and elicitation in `initialize`. */
const BY_CAPABILITY = ['trigger-elicitation-request', 'trigger-sampling-request'];

/**
 * A legacy SSE source's server session lives as long as its event stream. Cut (an idle timeout, a
 * proxy restarting), the stream would be opened again on a new session that Toolplane never
 * initialized, where server-everything lists none of the tools it offers by declared capability:
 * every discovery, scheduled or asked for, must run on a session that declared Toolplane's
 * capabilities.
 */
describe('an SSE source whose event stream is cut', () => {
  let h: Harness;
  let upstream: RunningUpstream;
  let proxy: CountingProxy;

  const source = async () => (await h.api.get('/api/v1/sources/ev-sse')).body;
  const toolNames = async (status: 'active' | 'deprecated') =>
    ((await h.api.get(`/api/v1/tools?source=ev-sse&status=${status}&limit=100`)).body.items as { name: string }[]).map((tool) => tool.name);

  beforeAll(async () => {
    upstream = await startEverythingHttp('sse');
    proxy = await startCountingProxy(upstream.port, '/sse');
    // Scheduled refreshes every second (the source's interval), claimed on 200 ms ticks.
    h = await startHarness({ TOOLPLANE_REFRESH_TICK_MS: '200' });
    const created = await h.api.post('/api/v1/sources', { name: 'ev-sse', transport: 'sse', url: proxy.url, refreshIntervalSeconds: 1 });
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: EVERYTHING_TOOL_COUNT });
  });

  afterAll(async () => {
    await h?.close();
    await proxy?.stop();
    await upstream?.stop();
  });

  it('keeps every tool through the scheduled refreshes that follow, and through a manual one', async () => {
    expect(await toolNames('active')).toEqual(expect.arrayContaining(BY_CAPABILITY));
    for (let cut = 1; cut <= 2; cut++) {
      proxy.sever();
      const cutAt = Date.now();
      // The SDK's EventSource opens a cut stream again 3 s later; scheduled refreshes follow every second.
      let seen = await source();
      const deadline = Date.now() + 20_000;
      while (!(seen.health === 'healthy' && Date.parse(seen.lastRefreshAt) > cutAt + 5000) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        seen = await source();
      }
      expect(Date.parse(seen.lastRefreshAt)).toBeGreaterThan(cutAt + 5000);
      expect(seen).toMatchObject({ health: 'healthy', toolCount: EVERYTHING_TOOL_COUNT });
    }
    const manual = await h.api.post('/api/v1/sources/ev-sse/refresh');
    expect(manual.status).toBe(200);
    expect(manual.body).toMatchObject({ added: 0, changed: 0, deprecated: 0, restored: 0 });
    expect(await source()).toMatchObject({ health: 'healthy', toolCount: EVERYTHING_TOOL_COUNT });
    expect(await toolNames('deprecated')).toEqual([]);
  }, 60_000);
});

import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * Rate limits: per principal (a key's own, or the default) and per tool (its source's), as token
 * buckets holding ten seconds of the rate; a call over either is 429 RATE_LIMITED with Retry-After
 * and the RateLimit header fields, recorded as rejected. Failed authentications are throttled per
 * client address. Buckets are shared by every process on the database: a second process gives no new budget.
 */
describe('rate limits', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_AUTH_FAILURES_PER_MINUTE: '30' });
    const source = await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'], rateLimitPerMinute: 60 });
    expect(source.status).toBe(201);
    expect(source.body.rateLimitPerMinute).toBe(60);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const echo = (api = h.api) => api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'x' } });

  it("refuses a principal's burst past its key's limit with 429, Retry-After and RateLimit fields", async () => {
    const key = (await h.api.post('/api/v1/api-keys', { name: 'slow agent', role: 'agent', rateLimitPerMinute: 30 })).body;
    expect(key.rateLimitPerMinute).toBe(30);
    const asAgent = makeApi(h.url, key.key);
    // 30 a minute holds five: the sixth in a burst is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await asAgent.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: i } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await asAgent.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: 2 } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: [{ path: 'principal', message: 'at most 30 calls a minute' }] });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(refused.headers.get('ratelimit-limit')).toBe('30');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-policy')).toBe('30;w=60');
    const [row] = await h.sql(`SELECT status, error->>'code' AS code FROM executions WHERE id = $1`, [refused.body.execution.id]);
    expect(row).toEqual({ status: 'rejected', code: 'RATE_LIMITED' });
    // Another principal is not affected by this one's budget.
    expect((await h.api.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: 2 } })).status).toBe(200);
    // After Retry-After, a call fits again.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await asAgent.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: 2 } })).status).toBe(200);
  });

  it("refuses calls to a tool past its source's limit, from all callers together", async () => {
    // 60 a minute holds ten for ev__echo, shared by every caller.
    const other = makeApi(h.url, (await h.api.post('/api/v1/api-keys', { name: 'other', role: 'agent' })).body.key);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await echo(i % 2 ? other : h.api)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const refused = await echo(other);
    expect(refused.body.error.details).toEqual([{ path: 'source.rateLimitPerMinute', message: 'at most 60 calls a minute' }]);
    // Other tools of the source have buckets of their own.
    expect((await h.api.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: 2 } })).status).toBe(200);
  });

  it('shares buckets between processes: a second process on the same database gives no new budget', async () => {
    // The peer empties the bucket for ev__echo (what refilled while it started); this process then finds it empty too.
    const peer = await h.startPeer();
    let allowedOnPeer = 0;
    while (allowedOnPeer <= 10 && (await echo(peer.api)).status === 200) allowedOnPeer++;
    expect(allowedOnPeer).toBeLessThan(10);
    const refused = await echo();
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toEqual([{ path: 'source.rateLimitPerMinute', message: 'at most 60 calls a minute' }]);
  });

  it('refuses an MCP call past the limit with an error result', async () => {
    const key = (await h.api.post('/api/v1/api-keys', { name: 'mcp agent', role: 'agent', rateLimitPerMinute: 6 })).body;
    const call = () =>
      makeApi(h.url, key.key).request(
        'POST',
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ev__get-sum', arguments: { a: 1, b: 2 }, _meta: { 'dev.toolplane/execution': true } } },
        { headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' } },
      );
    expect((await call()).body.result.isError).toBeUndefined();
    const refused = await call();
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result._meta['dev.toolplane/execution'].code).toBe('RATE_LIMITED');
  });

  it('throttles failed authentications per client address, whatever key comes next', async () => {
    const bad = makeApi(h.url, `tp_${'y'.repeat(43)}`);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await bad.get('/api/v1/sources')).status);
    // 30 a minute holds five failures; the sixth is refused, and so is the next request, even with a good key.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const good = await h.api.get('/api/v1/sources');
    expect(good.status).toBe(429);
    expect(good.body.error.code).toBe('TOO_MANY_FAILED_AUTHENTICATIONS');
    expect(Number(good.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, Number(good.headers.get('retry-after')) * 1000));
    expect((await h.api.get('/api/v1/sources')).status).toBe(200);
  });
});

import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/** The lists a console polls answer 304 while nothing changed, and a new tag once something did. */
describe('conditional GET of the executions and sources lists', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const get = (path: string, etag?: string) => h.api.request('GET', path, undefined, { headers: etag ? { 'if-none-match': etag } : {} });

  it.each(['/api/v1/executions?tool=ev__echo', '/api/v1/sources'])('%s: 304 while unchanged, a new ETag after a change', async (path) => {
    expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'one' } })).status).toBe(200);
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get(path, etag);
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers.get('etag')).toBe(etag);
    // Another call changes the history (and the source's view: its last activity, or at least its page).
    if (path.startsWith('/api/v1/executions')) {
      expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'two' } })).status).toBe(200);
    } else {
      expect((await h.api.patch('/api/v1/sources/ev', { description: 'changed' })).status).toBe(200);
    }
    const changed = await get(path, etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    // A tag from another filter never matches.
    expect((await get(`${path}${path.includes('?') ? '&' : '?'}limit=1`, etag)).status).toBe(200);
  });
});

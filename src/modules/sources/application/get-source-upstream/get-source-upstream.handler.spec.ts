import { aRemoteSource } from '../../testing/builders.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import { GetSourceUpstreamHandler } from './get-source-upstream.handler.js';
import { GetSourceUpstreamQuery } from './get-source-upstream.query.js';

const source = aRemoteSource({ name: 'remote', timeoutMs: 5000, enabled: false, headers: { Authorization: 'Bearer ${secret:TOKEN}' } });

function setup() {
  const f = sourcesFixture({ sources: [source], secrets: { TOKEN: 'sk-live-0123456789' } });
  const handler = new GetSourceUpstreamHandler(f.sources, f.resolver);
  return (name: string) => handler.execute(new GetSourceUpstreamQuery(name));
}

describe('GetSourceUpstreamHandler', () => {
  it('answers a live source by name with how to reach it now, its references resolved', async () => {
    const upstream = await setup()('remote');
    expect(upstream).toMatchObject({
      sourceId: source.id,
      name: 'remote',
      enabled: false,
      timeoutMs: 5000,
      target: { transport: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer sk-live-0123456789' } },
    });
  });

  it('answers nothing for an id (only a name addresses a source) or an unknown name', async () => {
    const get = setup();
    expect(await get(source.id)).toBeUndefined();
    expect(await get('nope')).toBeUndefined();
  });
});

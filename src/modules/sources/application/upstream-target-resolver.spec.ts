import { aRemoteSource, aSource } from '../testing/builders.js';
import { sourcesFixture } from '../testing/sources-fixture.js';

const TOKEN = 'sk-live-0123456789abcdef';

function setup() {
  return sourcesFixture({ secrets: { TOKEN }, env: { REGION: 'eu-west', DATABASE_URL: 'postgres://x' } });
}

describe('UpstreamTargetResolver', () => {
  it('renders references into values, adds declared defaults, and lists every value that must never be shown', async () => {
    const f = setup();
    const source = aSource({
      env: { API_TOKEN: '${secret:TOKEN}', URL: 'https://${env:REGION}.example.com', PLAIN: 'literal' },
      manifest: {
        file: 'server.json',
        name: 'io.example/demo',
        version: '1.0.0',
        env: [
          { name: 'PLAIN', isRequired: false, isSecret: true },
          { name: 'UNITS', isRequired: false, isSecret: false, default: 'metric' },
        ],
        headers: [],
      },
      upstream: { era: 'modern', protocolVersion: '2026-07-28', discoverResult: { cached: true } },
    }).snapshot();

    const target = await f.resolver.resolve(source);

    expect(target).toMatchObject({
      sourceId: source.id,
      env: { API_TOKEN: TOKEN, URL: 'https://eu-west.example.com', PLAIN: 'literal', UNITS: 'metric' },
      era: 'modern',
      discoverResult: { cached: true },
    });
    expect(target.secrets).toEqual(
      expect.arrayContaining([
        { name: 'TOKEN', value: TOKEN },
        { name: 'API_TOKEN', value: TOKEN },
        { name: 'env REGION', value: 'eu-west' },
        { name: 'URL', value: 'https://eu-west.example.com' },
        { name: 'PLAIN', value: 'literal' },
      ]),
    );
    expect(Object.isFrozen(target.secrets)).toBe(true);
  });

  it('counts every header value as secret', async () => {
    const f = setup();
    const target = await f.resolver.resolve(aRemoteSource({ headers: { 'X-Team': 'blue' } }).snapshot());
    expect(target.secrets).toEqual([{ name: 'header X-Team', value: 'blue' }]);
  });

  it.each([
    [{ A: '${secret:GONE}' }, 'SECRET_NOT_FOUND', { path: 'env', message: 'refers to missing secret "GONE"' }],
    [{ A: '${env:UNSET}' }, 'ENV_NOT_SET', { path: 'env.A', message: 'refers to unset ${env:UNSET}' }],
    [{ A: '${env:DATABASE_URL}' }, 'ENV_REFERENCE_REFUSED', { path: 'env.A', message: expect.stringContaining("Toolplane's own configuration") }],
  ])('refuses %j with %s', async (env, code, detail) => {
    const f = setup();
    await expect(f.resolver.resolve(aSource({ env }).snapshot())).rejects.toMatchObject({ code, kind: 'invalid', details: [detail] });
  });
});

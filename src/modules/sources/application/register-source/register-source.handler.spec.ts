import { CatalogChanged } from '../../../../shared/catalog-events.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { aListing } from '../../testing/fake-upstream-discovery.js';
import { aManifest, aRemoteSpec, aStdioSpec, aSource } from '../../testing/builders.js';
import { sourcesFixture, type SourcesFixtureOptions } from '../../testing/sources-fixture.js';
import { RegisterSourceCommand } from './register-source.command.js';
import { RegisterSourceHandler } from './register-source.handler.js';
import type { SourceSpecInput } from '../source-spec.js';

const SECRET = 'sk-live-0123456789abcdef';

function setup(options: SourcesFixtureOptions = {}) {
  const f = sourcesFixture(options);
  const handler = new RegisterSourceHandler(f.checker, f.sources, f.audit, f.refresher, f.uow, f.clock, f.ids, f.config, f.events.bus, f.notifier);
  const register = (spec: SourceSpecInput, wait = true, shapeProblems: { path: string; message: string }[] = []) =>
    handler.execute(new RegisterSourceCommand(spec, shapeProblems, 'admin', wait));
  return { ...f, register };
}

describe('RegisterSourceHandler', () => {
  it('registers a per-user source its registrant cannot discover yet: 201 all the same, awaiting its connection, nothing sent', async () => {
    const f = setup({ secrets: { IDP: 'idp-client-secret' } });
    const handler = new RegisterSourceHandler(f.checker, f.sources, f.audit, f.refresher, f.uow, f.clock, f.ids, f.config, f.events.bus, f.notifier);
    const spec = aRemoteSpec({ name: 'jira', headers: { Authorization: 'Bearer ${user-secret:JIRA}' }, upstreamAuth: { mode: 'user-secret' } });

    const { id } = await handler.execute(new RegisterSourceCommand(spec, [], 'key-alice', true, { id: 'key-alice', name: 'alice', kind: 'api-key' }));

    expect(f.sources.stored(id)).toMatchObject({ upstreamAuth: { mode: 'user-secret' }, discoveryPrincipal: { id: 'key-alice', name: 'alice' }, health: 'awaiting_connection', consecutiveFailures: 0 });
    expect(f.discovery.discoveries).toEqual([]);
    expect(f.audit.events[0]?.details).toMatchObject({ upstreamAuth: { mode: 'user-secret' } });
  });

  it('refuses settings of a mode that do not fit, with the others, and a clientSecret that is no stored secret', async () => {
    const f = setup();
    const refused = await rejection(f.register(aRemoteSpec({ timeoutMs: 5, upstreamAuth: { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'https://idp.example.com/token', audience: 'jira', clientId: 'tp', clientSecret: '${secret:MISSING}' } } }), true, [{ path: 'timeoutMs', message: 'must not be less than 100' }]));
    expect(refused).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [
        { path: 'timeoutMs', message: 'must not be less than 100' },
        { path: 'upstreamAuth.tokenExchange.clientSecret', message: expect.stringContaining('"MISSING", which does not exist') },
      ],
    });
    expect(await f.sources.listLive()).toEqual([]);
  });

  it('stores the source with the defaults, audits it, tells the catalog and discovers its tools before answering', async () => {
    const f = setup();
    f.discovery.answer('demo', aListing(['echo', 'add']));

    const { id } = await f.register(aStdioSpec());

    expect(f.sources.stored(id)).toMatchObject({
      name: 'demo',
      transport: 'stdio',
      lifecycle: 'transient',
      command: 'node',
      args: ['/srv/demo/server.js'],
      sandbox: { network: true, readOnlyPaths: [], writablePaths: [] },
      timeoutMs: 60_000,
      maxConcurrency: 16,
      refreshIntervalSeconds: 300,
      circuitBreaker: { failureThreshold: 5, resetTimeoutMs: 30_000 },
      enabled: true,
      health: 'healthy',
    });
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'source.registered',
        targetType: 'source',
        targetId: id,
        targetName: 'demo',
        details: { transport: 'stdio', command: 'node', args: ['/srv/demo/server.js'], url: null, pluginDir: null },
      },
    ]);
    expect(f.notifier.notified[0]).toBe(id);
    expect(f.events.of(CatalogChanged)[0]).toEqual(new CatalogChanged(id));
    expect(f.tools.all().map((tool) => tool.qualifiedName)).toEqual(['demo__add', 'demo__echo']);
  });

  it('reports the shape problems and every problem of the connection at once, and stores nothing', async () => {
    const f = setup();
    const registration = f.register(aStdioSpec({ command: 'no-such-binary', cwd: 'relative/dir', env: { TOKEN: '${secret:MISSING}', 'BAD-NAME': 'x' } }), true, [
      { path: 'timeoutMs', message: 'must be an integer' },
    ]);

    const error = await rejection(registration);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', kind: 'invalid' });
    expect(error.details.map((problem) => problem.path).sort()).toEqual(['command', 'cwd', 'env.BAD-NAME', 'env.TOKEN', 'timeoutMs']);
    expect(f.sources.count).toBe(0);
    expect(f.audit.events).toEqual([]);
    expect(f.events.published).toEqual([]);
    expect(f.discovery.discoveries).toEqual([]);
  });

  it('refuses a name a live source holds, with SOURCE_NAME_TAKEN on name', async () => {
    const f = setup({ sources: [aSource({ name: 'demo' })] });

    await expect(f.register(aStdioSpec())).rejects.toMatchObject({
      code: 'SOURCE_NAME_TAKEN',
      kind: 'conflict',
      details: [{ path: 'name', message: 'is already taken' }],
    });
    expect(f.sources.count).toBe(1);
    expect(f.audit.events).toEqual([]);
  });

  it('takes the name of a removed source', async () => {
    const f = setup({ sources: [aSource({ name: 'demo', deletedAt: new Date('2026-01-01T00:00:00Z') })] });
    const { id } = await f.register(aStdioSpec());
    expect(f.sources.stored(id)?.deletedAt).toBeNull();
  });

  it('keeps secret references, never their values, in what it stores and audits; the discovery alone gets the value', async () => {
    const f = setup({ secrets: { TOKEN: SECRET } });
    const { id } = await f.register(aRemoteSpec({ url: 'https://mcp.example.com/mcp?api_key=plain-key', headers: { Authorization: 'Bearer ${secret:TOKEN}' } }));

    expect(f.sources.stored(id)?.headers).toEqual({ Authorization: 'Bearer ${secret:TOKEN}' });
    expect(JSON.stringify(f.sources.stored(id))).not.toContain(SECRET);
    expect(f.audit.events[0]?.details).toEqual({ transport: 'streamable-http', command: null, args: [], url: 'https://mcp.example.com/mcp?api_key=***', pluginDir: null });
    expect(f.discovery.discoveries[0]?.target.headers).toEqual({ Authorization: `Bearer ${SECRET}` });
  });

  it('derives the launch from a plugin directory and records the manifest and the directory', async () => {
    const f = setup();
    f.manifests.place('/plugins/demo', aManifest('/plugins/demo', { version: '2.1.0' }));

    const { id } = await f.register({ name: 'demo', transport: 'stdio', pluginDir: '/plugins/demo' });

    expect(f.sources.stored(id)).toMatchObject({
      pluginDir: '/plugins/demo',
      command: 'node',
      commandFromManifest: true,
      args: ['/plugins/demo/server.js'],
      cwd: '/plugins/demo',
      manifest: { file: 'server.json', name: 'io.example/demo', version: '2.1.0' },
    });
    expect(f.audit.events[0]?.details).toMatchObject({ pluginDir: '/plugins/demo', command: 'node' });
  });

  it('starts no discovery for a source registered disabled', async () => {
    const f = setup();
    const { id } = await f.register(aStdioSpec({ enabled: false }));
    expect(f.sources.stored(id)).toMatchObject({ enabled: false, health: 'unknown' });
    expect(f.discovery.discoveries).toEqual([]);
  });

  it('answers the registration when its first discovery fails, the source recording why', async () => {
    const f = setup();
    f.discovery.answer('demo', new Error('the plugin exited with code 1'));
    const { id } = await f.register(aStdioSpec());
    expect(f.sources.stored(id)).toMatchObject({ health: 'unhealthy', lastError: 'the plugin exited with code 1', consecutiveFailures: 1 });
  });

  it('waits no longer than TOOLPLANE_REGISTRATION_WAIT_MS for a discovery that takes longer, and not at all when told not to', async () => {
    const f = setup({ config: { registrationWaitMs: 100, discoveryTimeoutMs: 30_000 } });
    const upstream = f.discovery.hold('demo');
    f.discovery.hold('quick');

    const started = performance.now();
    const { id } = await f.register(aStdioSpec());
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(f.refresher.underWay(id)).toBeDefined();
    expect(f.sources.stored(id)?.health).toBe('unknown');
    upstream.finish(aListing(['echo']));
    await f.refresher.refresh(id);
    expect(f.sources.stored(id)?.health).toBe('healthy');

    const quick = performance.now();
    const other = await f.register(aStdioSpec({ name: 'quick' }), false);
    expect(performance.now() - quick).toBeLessThan(90);
    expect(f.refresher.underWay(other.id)).toBeDefined();
    await f.refresher.cancel(other.id);
  });
});

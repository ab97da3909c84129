import { aManifest, aPluginSource, aSource } from '../../testing/builders.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import type { Source } from '../../domain/source.js';

const DIR = '/plugins/demo';

function setup(source: Source = aPluginSource(DIR)) {
  const f = sourcesFixture({ sources: [source] });
  const reread = async () => f.manifestReread.reread((await f.sources.findLive(source.id))!, 'operator');
  return { ...f, id: source.id, reread };
}

describe('ManifestReread', () => {
  it('leaves a source whose manifest says what it said, writing nothing', async () => {
    const f = setup();
    f.manifests.place(DIR, aManifest(DIR));
    expect(await f.reread()).toEqual({ kind: 'unchanged' });
    expect(f.sources.stored(f.id)?.version).toBe(1);
    expect(f.audit.events).toEqual([]);
  });

  it('does not read for a source without a plugin directory', async () => {
    const f = setup(aSource());
    expect(await f.reread()).toEqual({ kind: 'unchanged' });
    expect(f.manifests.reads).toEqual([]);
  });

  it('stores what an edited manifest changes, audits each field before and after, and lets go of the old launch', async () => {
    const f = setup();
    f.tripCircuit(f.id);
    const env = [{ name: 'UNITS', isRequired: false, isSecret: false, default: 'metric' }];
    f.manifests.place(DIR, aManifest(DIR, { version: '1.1.0', env, launch: { command: 'node', args: [`${DIR}/v2.js`] } }));

    const result = await f.reread();

    expect(result).toMatchObject({ kind: 'changed', changed: ['manifest', 'args'] });
    expect(f.sources.stored(f.id)).toMatchObject({ args: [`${DIR}/v2.js`], manifest: { version: '1.1.0', env }, version: 2, upstream: null });
    expect(f.audit.events).toEqual([
      {
        actor: 'operator',
        action: 'source.updated',
        targetType: 'source',
        targetId: f.id,
        targetName: 'demo',
        details: {
          trigger: 'manifest',
          changed: ['manifest', 'args'],
          before: { manifest: expect.objectContaining({ version: '1.0.0', env: [] }), args: [`${DIR}/server.js`] },
          after: { manifest: expect.objectContaining({ version: '1.1.0', env }), args: [`${DIR}/v2.js`] },
        },
      },
    ]);
    expect(f.notifier.notified).toEqual([f.id]);
    expect(f.discovery.released).toEqual([f.id]);
    expect(f.circuits.snapshot(f.id, f.clock.now().getTime()).state).toBe('closed');
  });

  it('answers every problem of a manifest that no longer checks out, and keeps the one the source has', async () => {
    const f = setup();
    const problems = [
      { path: 'server.json:name', message: 'must match the pattern' },
      { path: 'server.json:version', message: 'must be a string' },
    ];
    f.manifests.breakManifest(DIR, problems);
    expect(await f.reread()).toEqual({ kind: 'invalid', problems });
    expect(f.sources.stored(f.id)).toMatchObject({ manifest: { version: '1.0.0' }, version: 1 });
  });

  it('reads again the package chosen at registration', async () => {
    const second = aManifest(DIR, { launch: { command: 'node', args: [`${DIR}/second.js`] }, packageIndex: 1 });
    const f = setup(aPluginSource(DIR, second));
    f.manifests.place(DIR, aManifest(DIR), second);
    expect(await f.reread()).toEqual({ kind: 'unchanged' });
    expect(f.manifests.reads).toEqual([{ pluginDir: DIR, packageIndex: 1 }]);
  });

  it('writes nothing over a source changed since it was read (the next refresh reads again)', async () => {
    const f = setup();
    const read = (await f.sources.findLive(f.id))!;
    const meanwhile = (await f.sources.findLive(f.id))!;
    meanwhile.update({ description: 'changed meanwhile' }, f.clock.now());
    await f.sources.save(meanwhile);
    f.manifests.place(DIR, aManifest(DIR, { version: '1.1.0' }));

    expect(await f.manifestReread.reread(read, 'operator')).toEqual({ kind: 'unchanged' });
    expect(f.sources.stored(f.id)).toMatchObject({ description: 'changed meanwhile', manifest: { version: '1.0.0' } });
    expect(f.audit.events).toEqual([]);
  });
});

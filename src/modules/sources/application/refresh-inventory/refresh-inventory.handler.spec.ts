import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { aPluginSource, aSource } from '../../testing/builders.js';
import { aListing } from '../../testing/fake-upstream-discovery.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import type { Source } from '../../domain/source.js';
import { RefreshInventoryCommand } from './refresh-inventory.command.js';
import { RefreshInventoryHandler } from './refresh-inventory.handler.js';

function setup(source: Source) {
  const f = sourcesFixture({ sources: [source] });
  // The refresh writes its outcome in units of its own; the event is recorded after it, in one of the log's.
  const audit = new RecordingAuditLog();
  const handler = new RefreshInventoryHandler(f.sources, f.refresher, audit);
  return { ...f, audit, id: source.id, refresh: () => handler.execute(new RefreshInventoryCommand(source.name, 'operator')) };
}

describe('RefreshInventoryHandler', () => {
  it('answers what changed and audits it as the caller', async () => {
    const f = setup(aSource());
    f.discovery.answer('demo', aListing(['echo', 'add']));

    const changes = await f.refresh();

    expect(changes).toEqual({ added: 2, changed: 0, deprecated: 0, restored: 0, unchanged: 0 });
    expect(f.audit.events).toEqual([
      { actor: 'operator', action: 'source.refreshed', targetType: 'source', targetId: f.id, targetName: 'demo', details: changes },
    ]);
  });

  it('refuses a disabled source with SOURCE_DISABLED, discovering nothing', async () => {
    const f = setup(aSource({ enabled: false }));
    await expect(f.refresh()).rejects.toMatchObject({ code: 'SOURCE_DISABLED', kind: 'conflict' });
    expect(f.discovery.discoveries).toEqual([]);
    expect(f.audit.events).toEqual([]);
  });

  it('answers SOURCE_NOT_FOUND for a removed source', async () => {
    const f = setup(aSource({ deletedAt: new Date('2026-01-01T00:00:00Z') }));
    await expect(f.refresh()).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });

  it('answers a failed discovery with REFRESH_FAILED, audited with the reason', async () => {
    const f = setup(aSource());
    f.discovery.answer('demo', new Error('connect ECONNREFUSED 127.0.0.1:1'));

    await expect(f.refresh()).rejects.toMatchObject({
      code: 'REFRESH_FAILED',
      kind: 'upstream',
      message: 'Discovery of source "demo" failed: connect ECONNREFUSED 127.0.0.1:1',
    });
    expect(f.audit.events[0]?.details).toEqual({ error: 'connect ECONNREFUSED 127.0.0.1:1' });
  });

  it('answers a manifest that no longer checks out with MANIFEST_INVALID and every problem, audited with them', async () => {
    const f = setup(aPluginSource('/plugins/demo'));
    const problems = [
      { path: 'server.json:name', message: 'must match the namespace/name pattern' },
      { path: 'server.json:packages[0].transport.type', message: 'must be stdio, streamable-http or sse' },
    ];
    f.manifests.breakManifest('/plugins/demo', problems);

    await expect(f.refresh()).rejects.toMatchObject({ code: 'MANIFEST_INVALID', kind: 'invalid', details: problems });
    expect(f.audit.events[0]?.details).toEqual({ error: expect.stringContaining('cannot be used'), problems });
    expect(f.discovery.discoveries).toEqual([]);
  });
});

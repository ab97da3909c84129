import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_TOOL_COUNT, FIXTURES } from '../helpers/upstreams.js';

const FAULTY = join(FIXTURES, 'faulty-server.mjs');

/** A server.json whose one stdio package runs `script` with node (`stdio`: server-everything's transport; the fixture ignores it). */
const serverJson = (version: string, script: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'io.example/edited',
    description: 'A plugin whose manifest is edited in place',
    version,
    packages: [
      {
        registryType: 'npm',
        identifier: script,
        runtimeHint: 'node',
        transport: { type: 'stdio' },
        packageArguments: [
          { type: 'positional', value: 'stdio' },
          { type: 'positional', value: SUITE_TAG },
        ],
        ...extra,
      },
    ],
  });

/** Editing server.json in a plugin directory and refreshing: the source follows the file, audited, or keeps what it had when the file is broken. */
describe('a refresh reads the manifest of the plugin directory again', () => {
  let h: Harness;
  const pluginDir = mkdtempSync(join(tmpdir(), 'toolplane-edited-plugin-'));
  // Plugins run sandboxed as an unprivileged user, which must read the directory.
  chmodSync(pluginDir, 0o755);
  const write = (text: string) => writeFileSync(join(pluginDir, 'server.json'), text, { mode: 0o644 });

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.close();
    rmSync(pluginDir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  const events = async (action: string) => (await h.api.get(`/api/v1/audit-events?target=edited&action=${action}`)).body.items;

  it('an edited manifest: the new command and declarations are stored and used, and the change is audited with its diff', async () => {
    write(serverJson('1.0.0', EVERYTHING));
    const registered = await h.api.post('/api/v1/sources', { name: 'edited', transport: 'stdio', pluginDir, refreshIntervalSeconds: 0 });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: EVERYTHING_TOOL_COUNT, command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG], manifest: { version: '1.0.0', env: [] } });

    // Unchanged: nothing is written.
    expect((await h.api.post('/api/v1/sources/edited/refresh')).body).toMatchObject({ added: 0, deprecated: 0 });
    expect(await events('source.updated')).toEqual([]);

    write(serverJson('1.1.0', FAULTY, { environmentVariables: [{ name: 'UNITS', description: 'metric or imperial', default: 'metric' }] }));
    const refreshed = await h.api.post('/api/v1/sources/edited/refresh');
    expect(refreshed.status).toBe(200);
    // Both servers have an `echo`, each its own.
    expect(refreshed.body).toMatchObject({ deprecated: EVERYTHING_TOOL_COUNT - 1, changed: 1 });
    expect(refreshed.body.added).toBeGreaterThan(0);

    const source = (await h.api.get('/api/v1/sources/edited')).body;
    expect(source).toMatchObject({
      health: 'healthy',
      command: 'node',
      args: [FAULTY, 'stdio', SUITE_TAG],
      manifest: { version: '1.1.0', env: [{ name: 'UNITS', default: 'metric', isRequired: false, isSecret: false }] },
    });
    expect((await h.api.get('/api/v1/tools?source=edited')).body.items.map((tool: { name: string }) => tool.name)).toContain('slow');

    const [registeredEvent] = await events('source.registered');
    const [update] = await events('source.updated');
    expect(update).toMatchObject({
      actor: registeredEvent.actor,
      details: {
        trigger: 'manifest',
        changed: ['manifest', 'args'],
        before: { manifest: { version: '1.0.0', env: [] }, args: [EVERYTHING, 'stdio', SUITE_TAG] },
        after: { manifest: { version: '1.1.0', env: [{ name: 'UNITS' }] }, args: [FAULTY, 'stdio', SUITE_TAG] },
      },
    });
  });

  it('a broken manifest: the refresh answers every problem, the source keeps its manifest and says why it was not refreshed', async () => {
    write(JSON.stringify({ name: 'no-namespace', description: 'x', version: '2.0.0', packages: [{ registryType: 'npm', identifier: FAULTY, transport: { type: 'carrier-pigeon' } }] }));
    const refused = await h.api.post('/api/v1/sources/edited/refresh');
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('MANIFEST_INVALID');
    const paths = refused.body.error.details.map((problem: { path: string }) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['server.json:name', 'server.json:packages[0].transport.type']));

    const source = (await h.api.get('/api/v1/sources/edited')).body;
    expect(source).toMatchObject({ health: 'degraded', args: [FAULTY, 'stdio', SUITE_TAG], manifest: { version: '1.1.0' } });
    expect(source.lastError).toMatch(new RegExp(`^the manifest in ${pluginDir} cannot be used, the source keeps the one it had: server\\.json:name: `));
    expect(source.lastError).toContain('server.json:packages[0].transport.type: ');
    // The tools are still those of the manifest kept, and can be called.
    const call = await h.api.post('/api/v1/tools/edited__echo/invoke', { arguments: { message: 'still here' } });
    expect(call.body.status).toBe('succeeded');
    const [refreshEvent] = await events('source.refreshed');
    expect(refreshEvent.details.problems).toEqual(refused.body.error.details);

    write(serverJson('1.1.0', FAULTY, { environmentVariables: [{ name: 'UNITS', description: 'metric or imperial', default: 'metric' }] }));
    expect((await h.api.post('/api/v1/sources/edited/refresh')).status).toBe(200);
    expect((await h.api.get('/api/v1/sources/edited')).body).toMatchObject({ health: 'healthy', lastError: null });
    expect(await events('source.updated')).toHaveLength(1);
  });

  it('reads again the package chosen at registration', async () => {
    const twoPackages = mkdtempSync(join(tmpdir(), 'toolplane-two-packages-'));
    chmodSync(twoPackages, 0o755);
    try {
      const manifest = JSON.parse(serverJson('1.0.0', EVERYTHING));
      manifest.packages.push({ ...manifest.packages[0], identifier: FAULTY });
      writeFileSync(join(twoPackages, 'server.json'), JSON.stringify(manifest), { mode: 0o644 });
      const registered = await h.api.post('/api/v1/sources', { name: 'second-package', transport: 'stdio', pluginDir: twoPackages, packageIndex: 1, refreshIntervalSeconds: 0 });
      expect(registered.body).toMatchObject({ health: 'healthy', args: [FAULTY, 'stdio', SUITE_TAG] });
      expect((await h.api.post('/api/v1/sources/second-package/refresh')).body).toMatchObject({ added: 0, deprecated: 0 });
      expect((await h.api.get('/api/v1/sources/second-package')).body.args).toEqual([FAULTY, 'stdio', SUITE_TAG]);
      expect((await h.api.get('/api/v1/audit-events?target=second-package&action=source.updated')).body.items).toEqual([]);
    } finally {
      rmSync(twoPackages, { recursive: true, force: true });
    }
  });
});

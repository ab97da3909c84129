import type { ProblemDetail } from '../../../../shared/domain-error.js';
import { aManifest, aRemoteSource, aRemoteSpec, aSource, aStdioSpec } from '../../../sources/testing/builders.js';
import type { SourceSpecInput } from '../../../sources/application/source-spec.js';
import { configurationFixture } from '../../testing/configuration-fixture.js';

const DIR = '/plugins/demo';

function setup() {
  const f = configurationFixture({
    sources: [
      aSource({ name: 'local', env: { TOKEN: 'typed-in-token' }, timeoutMs: 5000 }),
      aRemoteSource({ name: 'remote', url: 'https://mcp.example.com/mcp?api_key=abc' }),
    ],
  });
  f.manifests.place(DIR, aManifest(DIR));
  const plan = (specs: SourceSpecInput[], prune = false, shapeProblems: ProblemDetail[][] = []) =>
    f.planner.plan(
      specs.map((spec, index) => ({ spec, shapeProblems: shapeProblems[index] ?? [] })),
      prune,
    );
  return { ...f, plan };
}

describe('ConfigPlanner', () => {
  it('takes ${stored} for the value a source holds now, so an exported file applies unchanged', async () => {
    const f = setup();
    const result = await f.plan([aStdioSpec({ name: 'local', env: { TOKEN: '${stored}' }, timeoutMs: 5000 }), aRemoteSpec({ url: '${stored}' })]);
    expect(result).toEqual({
      changes: [
        { kind: 'source', name: 'local', action: 'unchanged', fields: [] },
        { kind: 'source', name: 'remote', action: 'unchanged', fields: [] },
      ],
      steps: [],
      problems: [],
    });
  });

  it('refuses ${stored} where nothing is stored, a new transport, and whatever the checks find, each under its entry', async () => {
    const f = setup();
    const result = await f.plan(
      [
        aStdioSpec({ name: 'fresh', env: { TOKEN: '${stored}' } }),
        aStdioSpec({ name: 'local', env: { OTHER: '${stored}' } }),
        aStdioSpec({ name: 'remote' }),
        aStdioSpec({ name: 'bad', command: 'nope' }),
        aStdioSpec({ name: 'worse', command: 'nope' }),
      ],
      false,
      [[], [], [], [{ path: 'body', message: 'has an unknown key' }], []],
    );
    expect(result.problems).toEqual([
      { path: 'sources[0].env.TOKEN', message: expect.stringContaining('source "fresh" does not exist yet') },
      { path: 'sources[1].env.OTHER', message: expect.stringContaining('source "local" holds none here') },
      { path: 'sources[2].transport', message: expect.stringContaining('is streamable-http for the registered source "remote" and cannot change') },
      // An entry that is not a mapping is judged no further.
      { path: 'sources[3]', message: 'has an unknown key' },
      { path: 'sources[4].command', message: '"nope" was not found on PATH' },
    ]);
    expect(result.steps).toEqual([]);
  });

  it('reads a setting the file leaves out as its default, and updates with the whole declared state', async () => {
    const f = setup();
    const result = await f.plan([aStdioSpec({ name: 'local', env: { TOKEN: '${stored}' } })]);
    expect(result.changes).toEqual([{ kind: 'source', name: 'local', action: 'update', fields: ['timeoutMs'] }]);
    expect(result.steps).toEqual([
      {
        action: 'update',
        name: 'local',
        changes: expect.objectContaining({ timeoutMs: 60_000, command: 'node', pluginDir: null, cwd: null, env: { TOKEN: 'typed-in-token' }, enabled: true }),
      },
    ]);
  });

  it('plans upstreamAuth as a connection field: made per-user, back to shared when the file leaves it out, its problems under its entry', async () => {
    const f = setup();
    const perUser = { name: 'remote', url: 'https://mcp.example.com/mcp?api_key=abc', headers: { Authorization: 'Bearer ${user-secret:T}' }, upstreamAuth: { mode: 'user-secret' } };
    const made = await f.plan([aRemoteSpec(perUser)]);
    expect(made.changes).toEqual([{ kind: 'source', name: 'remote', action: 'update', fields: ['headers', 'upstreamAuth'] }]);
    expect(made.steps).toEqual([{ action: 'update', name: 'remote', changes: expect.objectContaining({ upstreamAuth: { mode: 'user-secret' } }) }]);

    const refused = await f.plan([aRemoteSpec({ ...perUser, upstreamAuth: undefined })]);
    expect(refused.problems).toEqual([{ path: 'sources[0].headers.Authorization', message: expect.stringContaining('user-secret') }]);
  });

  it('names a launch now derived from a manifest as the fields a file sets', async () => {
    const f = setup();
    const result = await f.plan([{ name: 'local', transport: 'stdio', pluginDir: DIR, env: { TOKEN: '${stored}' }, timeoutMs: 5000 }]);
    expect(result.changes).toEqual([{ kind: 'source', name: 'local', action: 'update', fields: ['pluginDir', 'manifest', 'command', 'args', 'cwd'] }]);
  });

  it('deletes the sources a file leaves out only with prune', async () => {
    const f = setup();
    expect((await f.plan([])).steps).toEqual([]);
    expect((await f.plan([], true)).steps).toEqual([
      { action: 'delete', name: 'local' },
      { action: 'delete', name: 'remote' },
    ]);
  });
});

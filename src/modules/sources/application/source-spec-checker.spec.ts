import { ProblemList } from '../../../shared/domain-error.js';
import { aManifest, aRemoteSpec, aStdioSpec } from '../testing/builders.js';
import { sourcesFixture } from '../testing/sources-fixture.js';
import type { ConnectionInput } from './source-spec-checker.js';

const DIR = '/plugins/demo';

function setup() {
  const f = sourcesFixture({ secrets: { TOKEN: 'sk-live-0123456789' }, env: { REGION: 'eu' } });
  f.commands.addDirectory('/srv/work');
  const paths = async (input: ConnectionInput, skip = new ProblemList()) => (await f.checker.check(input, skip)).problems.map((problem) => problem.path).sort();
  return { ...f, paths };
}

describe('SourceSpecChecker', () => {
  it.each<[string, ConnectionInput, string[]]>([
    ['stdio fields on a remote source', aRemoteSpec({ command: 'node', args: ['x'], cwd: '/srv', lifecycle: 'singleton', sandbox: {}, env: { A: 'b' } }), ['args', 'command', 'cwd', 'env', 'lifecycle', 'sandbox']],
    ['remote fields on a stdio source', aStdioSpec({ url: 'https://mcp.example.com/mcp', headers: { A: 'b' } }), ['headers', 'url']],
    ['a stdio source with neither command nor plugin directory', { transport: 'stdio' }, ['command']],
    ['a command not found, a relative cwd', aStdioSpec({ command: 'nope', cwd: 'work' }), ['command', 'cwd']],
    ['a cwd that is not a directory', aStdioSpec({ cwd: '/srv/missing' }), ['cwd']],
    ['a package chosen without a plugin directory', aStdioSpec({ packageIndex: 1 }), ['packageIndex']],
    ['a relative plugin directory', { transport: 'stdio', pluginDir: 'plugins/demo' }, ['pluginDir']],
    ['args beside a plugin directory without a command', { transport: 'stdio', pluginDir: DIR, args: ['--flag'] }, ['args']],
    ['a remote source without a URL', aRemoteSpec({ url: null }), ['url']],
    ['a URL not http(s)', aRemoteSpec({ url: 'file:///etc/passwd' }), ['url']],
    ['a URL with credentials', aRemoteSpec({ url: 'https://user:pw@mcp.example.com/mcp' }), ['url']],
    ['a missing secret, an unset and a refused variable', aStdioSpec({ env: { A: '${secret:NOPE}', B: '${secret:NOPE}', C: '${env:UNSET}', D: '${env:DATABASE_URL}' } }), ['env.A', 'env.B', 'env.C', 'env.D']],
    ['references that exist', aStdioSpec({ env: { A: '${secret:TOKEN}', B: '${env:REGION}' } }), []],
  ])('%s', async (_name, input, expected) => {
    const f = setup();
    f.manifests.place(DIR, aManifest(DIR));
    expect(await f.paths(input)).toEqual(expected);
  });

  it('judges nothing else without a transport it can use', async () => {
    const f = setup();
    const skip = new ProblemList();
    skip.add('transport', 'must be one of stdio, streamable-http, sse');
    expect(await f.checker.check({ transport: 'websocket' as never, command: 'nope' }, skip)).toEqual({ problems: [], notes: [] });
  });

  it('says what is wrong with a URL, and where a credential belongs instead', async () => {
    const f = setup();
    const problems = async (url: string) => (await f.checker.check(aRemoteSpec({ url }))).problems;
    expect(await problems('file:///etc/passwd')).toEqual([{ path: 'url', message: 'must use http or https, not file' }]);
    expect(await problems('not a url')).toEqual([{ path: 'url', message: 'is not a valid URL' }]);
    expect(await problems('https://user:pw@mcp.example.com/mcp')).toEqual([{ path: 'url', message: 'must not embed credentials; use headers with a ${secret:NAME} reference' }]);
  });

  it('refuses a host the policy denies, with its reason', async () => {
    const f = setup();
    f.remoteHosts.deny('169.254.169.254', 'is a link-local address');
    expect((await f.checker.check(aRemoteSpec({ url: 'http://169.254.169.254/mcp' }))).problems).toEqual([{ path: 'url', message: 'is a link-local address' }]);
  });

  it('reports what the sandbox user cannot reach of a launch', async () => {
    const f = setup();
    f.access.refuse('/srv/demo/server.js', 'args', 'is not readable by the sandbox user');
    expect((await f.checker.check(aStdioSpec())).problems).toEqual([{ path: 'args', message: 'is not readable by the sandbox user' }]);
    expect(f.access.asked).toEqual([{ command: '/usr/bin/node', cwd: undefined, pluginDir: undefined, args: ['/srv/demo/server.js'] }]);
  });

  it('checks env against what the manifest declares and derives the launch and cwd from it', async () => {
    const f = setup();
    const env = [
      { name: 'API_TOKEN', isRequired: true, isSecret: true },
      { name: 'LEVEL', isRequired: false, isSecret: false, choices: ['low', 'high'] },
    ];
    f.manifests.place(DIR, aManifest(DIR, { env }));
    const bad = await f.checker.check({ transport: 'stdio', pluginDir: DIR, env: { LEVEL: 'medium' } });
    expect(bad.problems.map((problem) => problem.path).sort()).toEqual(['env.API_TOKEN', 'env.LEVEL']);

    const good = await f.checker.check({ transport: 'stdio', pluginDir: DIR, env: { API_TOKEN: '${secret:TOKEN}', LEVEL: 'low' } });
    expect(good).toMatchObject({
      problems: [],
      connection: { command: 'node', commandFromManifest: true, args: [`${DIR}/server.js`], cwd: DIR, pluginDir: DIR, manifest: { name: 'io.example/demo', env } },
    });
  });

  it('refuses a plugin directory whose manifest describes a remote server', async () => {
    const f = setup();
    f.manifests.place(DIR, aManifest(DIR, { launch: undefined, remote: { type: 'sse', url: 'https://mcp.example.com/sse', headers: [] } }));
    expect((await f.checker.check({ transport: 'stdio', pluginDir: DIR })).problems).toContainEqual({
      path: 'pluginDir',
      message: 'server.json describes a remote server (https://mcp.example.com/sse); register it with transport sse and url instead',
    });
  });

  it('stores the sandbox with every field, each path once', async () => {
    const f = setup();
    const checked = await f.checker.check(aStdioSpec({ sandbox: { readOnlyPaths: ['/data', '/data'] } }));
    expect(checked.connection?.sandbox).toEqual({ network: true, readOnlyPaths: ['/data'], writablePaths: [] });
  });
});

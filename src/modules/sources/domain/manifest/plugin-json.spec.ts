import { type PluginJsonDocument, type PluginJsonPackage, mapPluginJson } from './plugin-json.js';
import type { ManifestMappingContext } from './plugin-manifest.js';

const PLUGIN_DIR = '/plugins/memory';
const existing = new Set(['/plugins/memory/dist/index.js', '/plugins/memory/bin/server', '/plugins/memory/server', '/plugins/memory/data', '/plugins/other/data']);
const context = (overrides: Partial<ManifestMappingContext> = {}): ManifestMappingContext => ({
  pluginDir: PLUGIN_DIR,
  exists: (p) => existing.has(p),
  ...overrides,
});

const doc = (...packages: PluginJsonPackage[]): PluginJsonDocument => ({ name: 'memory', version: '1.0.0', packages });

const launchOf = (pkg: PluginJsonPackage) => {
  const result = mapPluginJson(doc(pkg), context());
  expect(result.problems).toEqual([]);
  return result.manifest?.launch;
};

describe('mapPluginJson launch derivation', () => {
  it('prepends the runtime and resolves the script inside the plugin directory', () => {
    expect(launchOf({ runtime: 'node', command: ['dist/index.js'] })).toEqual({
      command: 'node',
      args: ['/plugins/memory/dist/index.js'],
    });
  });

  it('runs npx without a prompt, whether it is the runtime or the command', () => {
    expect(launchOf({ runtime: 'npx', command: ['@example/memory', 'stdio'] })).toEqual({ command: 'npx', args: ['-y', '@example/memory', 'stdio'] });
    expect(launchOf({ command: ['npx', '@example/memory'] })).toEqual({ command: 'npx', args: ['-y', '@example/memory'] });
    expect(launchOf({ command: ['npx', '--yes', '@example/memory'] })).toEqual({ command: 'npx', args: ['--yes', '@example/memory'] });
    expect(launchOf({ runtime: 'uvx', command: ['memory-mcp'] })).toEqual({ command: 'uvx', args: ['memory-mcp'] });
  });

  it('does not repeat a runtime the command already starts with', () => {
    expect(launchOf({ runtime: 'node', command: ['node', 'dist/index.js'] })).toEqual({
      command: 'node',
      args: ['/plugins/memory/dist/index.js'],
    });
    expect(launchOf({ runtime: 'node', command: ['/usr/bin/node', 'dist/index.js'] })?.command).toBe('/usr/bin/node');
  });

  it('leaves a bare command name for PATH lookup but resolves a command path', () => {
    expect(launchOf({ command: ['server', '--port', '1'] })).toEqual({ command: 'server', args: ['--port', '1'] });
    expect(launchOf({ command: ['bin/server'] })).toEqual({ command: '/plugins/memory/bin/server', args: [] });
    expect(launchOf({ command: ['./bin/server'] })?.command).toBe('/plugins/memory/bin/server');
  });

  it('resolves only arguments that name something inside the plugin directory', () => {
    expect(launchOf({ command: ['uvx', 'memory-mcp', 'data', '--dir=data', '-v', '../other/data', 'missing.txt'] })?.args).toEqual([
      'memory-mcp',
      '/plugins/memory/data',
      '--dir=data',
      '-v',
      '../other/data',
      'missing.txt',
    ]);
  });
});

describe('mapPluginJson entry choice and environment', () => {
  it('maps environment variables with required and secret defaulting to false', () => {
    const result = mapPluginJson(
      doc({
        command: ['server'],
        environment_variables: [
          { name: 'MEMORY_FILE_PATH', description: 'Where to keep the graph', default: '/tmp/memory.json' },
          { name: 'TOKEN', required: true, secret: true },
        ],
      }),
      context(),
    );

    expect(result.manifest).toEqual({
      file: 'plugin.json',
      name: 'memory',
      version: '1.0.0',
      launch: { command: 'server', args: [] },
      env: [
        { name: 'MEMORY_FILE_PATH', description: 'Where to keep the graph', isRequired: false, isSecret: false, default: '/tmp/memory.json' },
        { name: 'TOKEN', isRequired: true, isSecret: true },
      ],
      packageIndex: 0,
    });
  });

  it('takes the first stdio package, else the first package as a remote', () => {
    const remote: PluginJsonPackage = { transport_type: 'sse', url: 'https://example.com/sse' };

    expect(mapPluginJson(doc(remote, { command: ['server'] }), context()).manifest).toMatchObject({
      packageIndex: 1,
      launch: { command: 'server', args: [] },
    });
    const remoteOnly = mapPluginJson(doc(remote), context()).manifest;
    expect(remoteOnly).toMatchObject({ packageIndex: 0, remote: { type: 'sse', url: 'https://example.com/sse', headers: [] } });
    expect(remoteOnly?.launch).toBeUndefined();
  });

  it('uses the requested package index, and reports one out of range', () => {
    const packages = [{ command: ['a'] }, { command: ['b'] }];
    expect(mapPluginJson(doc(...packages), context({ packageIndex: 1 })).manifest?.launch?.command).toBe('b');
    expect(mapPluginJson(doc(...packages), context({ packageIndex: -1 })).problems).toEqual([
      { path: 'packageIndex', message: '-1 is out of range: plugin.json declares 2 packages (use 0 to 1)' },
    ]);
  });

  it('reports duplicate names in any package', () => {
    const result = mapPluginJson(
      doc({ command: ['a'] }, { command: ['b'], environment_variables: [{ name: 'X' }, { name: 'Y' }, { name: 'X' }] }),
      context(),
    );

    expect(result).toEqual({
      problems: [
        {
          path: 'plugin.json:packages[1].environment_variables[2].name',
          message: "duplicate environment variable 'X' (already declared at index 0)",
        },
      ],
    });
  });
});

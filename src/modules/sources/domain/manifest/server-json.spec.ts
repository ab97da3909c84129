import type { ManifestMappingContext } from './plugin-manifest.js';
import { type ServerJsonDocument, type ServerJsonPackage, mapServerJson } from './server-json.js';

const PLUGIN_DIR = '/plugins/weather';
const existing = new Set(['/plugins/weather/dist/index.js', '/plugins/weather/weather-server', '/plugins/other/dist/index.js']);
const context = (overrides: Partial<ManifestMappingContext> = {}): ManifestMappingContext => ({
  pluginDir: PLUGIN_DIR,
  exists: (p) => existing.has(p),
  ...overrides,
});

const doc = (overrides: Partial<ServerJsonDocument> = {}): ServerJsonDocument => ({
  name: 'io.github.example/weather',
  description: 'Weather forecasts',
  version: '1.0.0',
  ...overrides,
});

const stdio = (pkg: Partial<ServerJsonPackage>): ServerJsonPackage => ({
  registryType: 'npm',
  identifier: '@example/weather',
  transport: { type: 'stdio' },
  ...pkg,
});

function launchOf(pkg: Partial<ServerJsonPackage>) {
  const result = mapServerJson(doc({ packages: [stdio(pkg)] }), context());
  expect(result.problems).toEqual([]);
  return result.manifest?.launch;
}

describe('mapServerJson launch derivation', () => {
  it('runs npm packages with npx, pinned to the version when there is one, without a prompt', () => {
    expect(launchOf({ version: '1.2.3' })).toEqual({ command: 'npx', args: ['-y', '@example/weather@1.2.3'] });
    expect(launchOf({})).toEqual({ command: 'npx', args: ['-y', '@example/weather'] });
    expect(launchOf({ runtimeHint: 'npx', packageArguments: [{ type: 'positional', value: 'stdio' }] })).toEqual({
      command: 'npx',
      args: ['-y', '@example/weather', 'stdio'],
    });
  });

  it('says yes to npx once: not again when the runtime arguments already do', () => {
    expect(launchOf({ runtimeArguments: [{ type: 'named', name: '--yes' }] })?.args).toEqual(['--yes', '@example/weather']);
    expect(launchOf({ runtimeArguments: [{ type: 'positional', value: '-y' }] })?.args).toEqual(['-y', '@example/weather']);
    // A `-y` of the package's own, after it, is the package's.
    expect(launchOf({ packageArguments: [{ type: 'positional', value: '-y' }] })?.args).toEqual(['-y', '@example/weather', '-y']);
  });

  it('runs pypi packages with uvx', () => {
    expect(launchOf({ registryType: 'pypi', identifier: 'weather-mcp', version: '0.4.1' })).toEqual({
      command: 'uvx',
      args: ['weather-mcp@0.4.1'],
    });
  });

  it('runs oci images with docker, tagging them with the version unless tagged or pinned', () => {
    const image = (identifier: string, version?: string) =>
      launchOf({ registryType: 'oci', identifier, version })?.args.at(-1);

    expect(launchOf({ registryType: 'oci', identifier: 'example/weather' })).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', 'example/weather'],
    });
    expect(image('example/weather', '1.0')).toBe('example/weather:1.0');
    expect(image('localhost:5000/weather', '1.0')).toBe('localhost:5000/weather:1.0');
    expect(image('example/weather:edge', '1.0')).toBe('example/weather:edge');
    expect(image('example/weather@sha256:abc', '1.0')).toBe('example/weather@sha256:abc');
  });

  it('lets runtimeHint win over the registry default', () => {
    expect(launchOf({ registryType: 'npm', identifier: 'weather', runtimeHint: 'bunx' })).toEqual({
      command: 'bunx',
      args: ['weather'],
    });
  });

  it('resolves a script run by a runtime against the plugin directory only when it is there', () => {
    expect(launchOf({ identifier: 'dist/index.js', runtimeHint: 'node' })).toEqual({
      command: 'node',
      args: ['/plugins/weather/dist/index.js'],
    });
    expect(launchOf({ identifier: 'dist/missing.js', runtimeHint: 'node' })?.args).toEqual(['dist/missing.js']);
    expect(launchOf({ identifier: '../other/dist/index.js', runtimeHint: 'node' })?.args).toEqual(['../other/dist/index.js']);
  });

  it('uses the identifier as the executable without a runtime, and gives up on a download URL', () => {
    expect(launchOf({ registryType: 'nuget', identifier: 'weather-server' })).toEqual({
      command: '/plugins/weather/weather-server',
      args: [],
    });
    expect(launchOf({ registryType: 'nuget', identifier: 'Example.Weather' })).toEqual({
      command: 'Example.Weather',
      args: [],
    });
    expect(launchOf({ registryType: 'mcpb', identifier: 'https://example.com/weather.mcpb' })).toBeUndefined();
  });

  it('renders runtime and package arguments in order, leaving {placeholders} verbatim', () => {
    const launch = launchOf({
      registryType: 'oci',
      identifier: 'example/weather',
      runtimeArguments: [
        { type: 'named', name: '--mount', value: 'type=bind,src={source},dst=/data', variables: { source: { isRequired: true } } },
        { type: 'named', name: '--init' },
      ],
      packageArguments: [
        { type: 'positional', value: 'serve' },
        { type: 'positional', valueHint: 'port', default: '8080' },
        { type: 'positional', valueHint: 'optional_extra' },
        { type: 'named', name: '--units', default: 'metric' },
      ],
    });

    expect(launch?.args).toEqual([
      'run',
      '-i',
      '--rm',
      '--mount',
      'type=bind,src={source},dst=/data',
      '--init',
      'example/weather',
      'serve',
      '8080',
      '--units',
      'metric',
    ]);
  });

  it('reports a required positional argument without a value', () => {
    const result = mapServerJson(
      doc({ packages: [stdio({ packageArguments: [{ type: 'positional', valueHint: 'db_path', isRequired: true }] })] }),
      context(),
    );

    expect(result).toEqual({
      problems: [
        {
          path: 'server.json:packages[0].packageArguments[0]',
          message: `positional argument 'db_path' needs a value to launch the package: give "value" or "default"`,
        },
      ],
    });
  });
});

describe('mapServerJson entry choice', () => {
  const httpPackage = stdio({
    transport: { type: 'streamable-http', url: 'http://localhost:8080/mcp', headers: [{ name: 'X-Key', isSecret: true }] },
  });
  const remote = { type: 'sse' as const, url: 'https://example.com/sse', headers: [{ name: 'Authorization' }] };

  it('takes the first stdio package', () => {
    const result = mapServerJson(doc({ packages: [httpPackage, stdio({ identifier: 'second' })], remotes: [remote] }), context());

    expect(result.manifest).toMatchObject({ packageIndex: 1, launch: { command: 'npx', args: ['-y', 'second'] } });
    expect(result.manifest?.remote).toBeUndefined();
  });

  it('falls back to the first remote, then to the first package', () => {
    const remoteOnly = mapServerJson(doc({ packages: [httpPackage], remotes: [remote] }), context());
    expect(remoteOnly.manifest).toMatchObject({
      packageIndex: -1,
      env: [],
      remote: { type: 'sse', url: 'https://example.com/sse', headers: [{ name: 'Authorization', isRequired: false, isSecret: false }] },
    });

    const packageOnly = mapServerJson(doc({ packages: [httpPackage] }), context());
    expect(packageOnly.manifest).toMatchObject({
      packageIndex: 0,
      remote: {
        type: 'streamable-http',
        url: 'http://localhost:8080/mcp',
        headers: [{ name: 'X-Key', isRequired: false, isSecret: true }],
      },
    });
    expect(packageOnly.manifest?.launch).toBeUndefined();
  });

  it('reports a server.json with nothing to run', () => {
    expect(mapServerJson(doc(), context()).problems).toEqual([
      { path: 'server.json', message: 'declares neither packages nor remotes: there is nothing to launch or connect to' },
    ]);
  });

  it('uses the requested package index, and reports one out of range', () => {
    const packages = [stdio({}), httpPackage];
    expect(mapServerJson(doc({ packages }), context({ packageIndex: 1 })).manifest?.remote?.url).toBe('http://localhost:8080/mcp');

    expect(mapServerJson(doc({ packages }), context({ packageIndex: 5 })).problems).toEqual([
      { path: 'packageIndex', message: '5 is out of range: server.json declares 2 packages (use 0 to 1)' },
    ]);
    expect(mapServerJson(doc({ remotes: [remote] }), context({ packageIndex: 0 })).problems).toEqual([
      { path: 'packageIndex', message: '0 is out of range: server.json declares no packages' },
    ]);
    expect(mapServerJson(doc({ packages }), context({ packageIndex: 0.5 })).problems).toHaveLength(1);
  });
});

describe('mapServerJson declarations', () => {
  it('normalises environment variables of the chosen package', () => {
    const result = mapServerJson(
      doc({
        packages: [
          stdio({
            environmentVariables: [
              { name: 'API_KEY', description: 'Key', isRequired: true, isSecret: true, placeholder: 'sk-...' },
              { name: 'UNITS', default: 'metric', choices: ['metric', 'imperial'] },
              { name: 'DATA_DIR', format: 'filepath' },
            ],
          }),
        ],
      }),
      context(),
    );

    expect(result.manifest?.env).toEqual([
      { name: 'API_KEY', description: 'Key', isRequired: true, isSecret: true },
      { name: 'UNITS', isRequired: false, isSecret: false, default: 'metric', choices: ['metric', 'imperial'] },
      { name: 'DATA_DIR', isRequired: false, isSecret: false, format: 'filepath' },
    ]);
  });

  it('checks every package and remote, not only the chosen one', () => {
    const result = mapServerJson(
      doc({
        packages: [
          stdio({ environmentVariables: [{ name: 'A' }] }),
          stdio({ environmentVariables: [{ name: 'B' }, { name: 'B' }] }),
        ],
        remotes: [{ type: 'sse', url: 'https://example.com/sse', headers: [{ name: 'X-A' }, { name: 'x-a' }] }],
      }),
      context(),
    );

    expect(result.problems.map((p) => p.path)).toEqual([
      'server.json:packages[1].environmentVariables[1].name',
      'server.json:remotes[0].headers[1].name',
    ]);
  });

  it('reports defaults that contradict choices or format', () => {
    const result = mapServerJson(
      doc({
        packages: [
          stdio({
            environmentVariables: [
              { name: 'UNITS', default: 'kelvin', choices: ['metric', 'imperial'] },
              { name: 'PORT', default: 'eighty', format: 'number' },
              { name: 'DEBUG', default: 'yes', format: 'boolean' },
              { name: 'TIMEOUT', default: '2.5', format: 'number' },
            ],
          }),
        ],
      }),
      context(),
    );

    expect(result.problems).toEqual([
      { path: 'server.json:packages[0].environmentVariables[0].default', message: 'must be one of the choices: metric, imperial' },
      {
        path: 'server.json:packages[0].environmentVariables[1].default',
        message: 'must be a decimal number, as the format is number',
      },
      {
        path: 'server.json:packages[0].environmentVariables[2].default',
        message: 'must be "true" or "false", as the format is boolean',
      },
    ]);
  });
});

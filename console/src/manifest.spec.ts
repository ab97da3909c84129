import { readManifest } from './manifest.js';

describe('readManifest', () => {
  it('takes a plugin.json command line and its variables, secrets without their values', () => {
    expect(
      readManifest({
        name: 'github',
        description: 'GitHub tools',
        packages: [{ name: 'github', command: ['node', 'dist/index.js', '--stdio'], environment_variables: [{ name: 'GITHUB_TOKEN', required: true, secret: true, default: 'leaked?' }, { name: 'GITHUB_HOST', default: 'github.com' }] }],
      }),
    ).toEqual({
      transport: 'stdio',
      command: 'node',
      args: ['dist/index.js', '--stdio'],
      env: [
        { name: 'GITHUB_TOKEN', secret: true, required: true },
        { name: 'GITHUB_HOST', secret: false, required: false, value: 'github.com' },
      ],
      headers: [],
      description: 'GitHub tools',
    });
  });

  it('derives a server.json package launch from its runtime and arguments', () => {
    const prefill = readManifest({
      name: 'io.example/weather',
      packages: [
        {
          registryType: 'npm',
          identifier: '@example/weather-mcp',
          version: '1.2.0',
          runtimeHint: 'npx',
          runtimeArguments: [{ type: 'named', name: '-y' }],
          packageArguments: [{ type: 'named', name: '--units', value: 'metric' }, { type: 'positional', valueHint: 'cache_dir' }],
          environmentVariables: [{ name: 'WEATHER_API_KEY', isRequired: true, isSecret: true }],
        },
      ],
    });
    expect(prefill.command).toBe('npx');
    expect(prefill.args).toEqual(['-y', '@example/weather-mcp@1.2.0', '--units', 'metric', '<cache_dir>']);
    expect(prefill.env).toEqual([{ name: 'WEATHER_API_KEY', secret: true, required: true }]);
  });

  it('takes a remote server with its headers', () => {
    expect(readManifest({ remotes: [{ type: 'sse', url: 'https://mcp.example/sse', headers: [{ name: 'Authorization', isSecret: true }] }] })).toMatchObject({
      transport: 'sse',
      url: 'https://mcp.example/sse',
      headers: [{ name: 'Authorization', secret: true }],
    });
  });

  it('says what is missing', () => {
    expect(() => readManifest([])).toThrow('no package or remote');
    expect(() => readManifest('text')).toThrow('not a JSON object');
  });
});

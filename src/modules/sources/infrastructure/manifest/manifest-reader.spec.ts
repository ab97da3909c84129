import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_MANIFEST_PROBLEMS, ManifestReader } from './manifest-reader.js';

const reader = new ManifestReader();
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolplane-manifest-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes files (objects as JSON) into the temp plugin directory and returns its path. */
async function pluginDir(files: Record<string, unknown>): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

const serverJson = (overrides: Record<string, unknown> = {}) => ({
  $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
  name: 'io.github.example/weather',
  description: 'Weather forecasts',
  version: '1.2.0',
  ...overrides,
});

describe('ManifestReader with server.json', () => {
  it('derives an npx launch and the declared environment of an npm package', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({
        packages: [
          {
            registryType: 'npm',
            identifier: '@example/weather-mcp',
            version: '1.2.0',
            transport: { type: 'stdio' },
            runtimeArguments: [{ type: 'named', name: '-y' }],
            packageArguments: [
              { type: 'named', name: '--units', value: 'metric' },
              { type: 'positional', valueHint: 'cache_dir' },
            ],
            environmentVariables: [
              { name: 'WEATHER_API_KEY', description: 'API key', isRequired: true, isSecret: true },
              { name: 'LOG_LEVEL', default: 'info', choices: ['debug', 'info'], format: 'string' },
            ],
          },
        ],
      }),
    });

    const result = await reader.read(dir);

    expect(result.problems).toEqual([]);
    expect(result.manifest).toEqual({
      file: 'server.json',
      name: 'io.github.example/weather',
      version: '1.2.0',
      description: 'Weather forecasts',
      launch: { command: 'npx', args: ['-y', '@example/weather-mcp@1.2.0', '--units', 'metric'] },
      env: [
        { name: 'WEATHER_API_KEY', description: 'API key', isRequired: true, isSecret: true },
        { name: 'LOG_LEVEL', isRequired: false, isSecret: false, default: 'info', format: 'string', choices: ['debug', 'info'] },
      ],
      packageIndex: 0,
    });
  });

  it('resolves a relative identifier run by node against the plugin directory', async () => {
    const dir = await pluginDir({
      'dist/index.js': 'console.log("hi")',
      'server.json': serverJson({
        packages: [
          { registryType: 'npm', identifier: 'dist/index.js', runtimeHint: 'node', transport: { type: 'stdio' } },
        ],
      }),
    });

    const { manifest, problems } = await reader.read(dir);

    expect(problems).toEqual([]);
    expect(manifest?.launch).toEqual({ command: 'node', args: [path.join(dir, 'dist/index.js')] });
  });

  it('derives a docker run for an oci image, adding the version as tag', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({
        packages: [
          {
            registryType: 'oci',
            identifier: 'ghcr.io/example/weather',
            version: '1.2.0',
            transport: { type: 'stdio' },
            runtimeArguments: [{ type: 'named', name: '-e', value: 'WEATHER_API_KEY' }],
            environmentVariables: [{ name: 'WEATHER_API_KEY', isRequired: true, isSecret: true }],
          },
        ],
      }),
    });

    const { manifest, problems } = await reader.read(dir);

    expect(problems).toEqual([]);
    expect(manifest?.launch).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'WEATHER_API_KEY', 'ghcr.io/example/weather:1.2.0'],
    });
  });

  it('exposes the first remote and its headers when there is no stdio package', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({
        remotes: [
          {
            type: 'streamable-http',
            url: 'https://mcp.example.com/mcp',
            headers: [
              { name: 'Authorization', value: 'Bearer {token}', isRequired: true, isSecret: true, variables: { token: { isSecret: true } } },
              { name: 'X-Region', choices: ['eu', 'us'], default: 'eu' },
            ],
          },
        ],
      }),
    });

    const { manifest, problems } = await reader.read(dir);

    expect(problems).toEqual([]);
    expect(manifest).toMatchObject({ packageIndex: -1, env: [] });
    expect(manifest?.launch).toBeUndefined();
    expect(manifest?.remote).toEqual({
      type: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: [
        { name: 'Authorization', value: 'Bearer {token}', isRequired: true, isSecret: true },
        { name: 'X-Region', isRequired: false, isSecret: false, default: 'eu', choices: ['eu', 'us'] },
      ],
    });
  });

  it('reports every schema problem of the file at once, each with its path', async () => {
    const dir = await pluginDir({
      'server.json': {
        name: 'no slash here',
        version: 3,
        packages: [
          {
            registryType: 'cargo',
            identifier: '',
            transport: { type: 'websocket' },
            environmentVariables: [{ name: 'OK_NAME' }, { name: '1BAD-NAME', isSecret: 'yes' }],
            packageArguments: [{ type: 'positional' }, { type: 'named' }],
          },
          { registryType: 'npm', identifier: 'x', transport: { type: 'sse' } },
        ],
        remotes: [{ type: 'sse', url: 'ftp://example.com' }],
      },
    });

    const { manifest, problems } = await reader.read(dir);

    expect(manifest).toBeUndefined();
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'server.json:name', message: "must look like 'namespace/name', e.g. 'io.github.user/weather'" },
        { path: 'server.json:description', message: 'is required' },
        { path: 'server.json:version', message: 'must be a string, got a number' },
        { path: 'server.json:packages[0].registryType', message: 'must be one of npm, pypi, oci, nuget, mcpb' },
        { path: 'server.json:packages[0].identifier', message: 'must not be empty' },
        { path: 'server.json:packages[0].transport.type', message: 'must be one of stdio, streamable-http, sse' },
        {
          path: 'server.json:packages[0].environmentVariables[1].name',
          message: 'must be a valid environment variable name (letters, digits and _, not starting with a digit)',
        },
        { path: 'server.json:packages[0].environmentVariables[1].isSecret', message: 'must be a boolean, got a string' },
        { path: 'server.json:packages[0].packageArguments[0]', message: 'needs "value" or "valueHint"' },
        { path: 'server.json:packages[0].packageArguments[1].name', message: 'is required' },
        { path: 'server.json:packages[1].transport.url', message: 'is required' },
        { path: 'server.json:remotes[0].url', message: 'must be an http:// or https:// URL without spaces' },
      ]),
    );
    expect(problems).toHaveLength(12);
  });

  it('reports unknown properties, and accepts _meta anywhere', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({
        _meta: { 'com.example/build': { anything: [1, { deep: null }] } },
        descripton: 'typo',
        packages: [
          {
            registryType: 'npm',
            identifier: '@example/weather-mcp',
            transport: { type: 'stdio', _meta: {} },
            enviromentVariables: [],
            environmentVariables: [{ name: 'A', secret: true, _meta: { x: 1 } }],
            _meta: { note: 'fine' },
          },
        ],
      }),
    });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual([
      { path: 'server.json:descripton', message: "unknown property 'descripton'" },
      { path: 'server.json:packages[0].enviromentVariables', message: "unknown property 'enviromentVariables'" },
      { path: 'server.json:packages[0].environmentVariables[0].secret', message: "unknown property 'secret'" },
    ]);
  });

  it('reports duplicate environment variables and case-insensitively duplicate headers', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({
        packages: [
          {
            registryType: 'npm',
            identifier: '@example/weather-mcp',
            transport: { type: 'stdio' },
            environmentVariables: [{ name: 'API_KEY' }, { name: 'REGION' }, { name: 'API_KEY' }],
          },
        ],
        remotes: [
          { type: 'sse', url: 'https://example.com/sse', headers: [{ name: 'X-Key' }, { name: 'x-key' }] },
        ],
      }),
    });

    const { manifest, problems } = await reader.read(dir);

    expect(manifest).toBeUndefined();
    expect(problems).toEqual([
      {
        path: 'server.json:packages[0].environmentVariables[2].name',
        message: "duplicate environment variable 'API_KEY' (already declared at index 0)",
      },
      { path: 'server.json:remotes[0].headers[1].name', message: "duplicate header 'x-key' (already declared at index 0)" },
    ]);
  });

  it('uses the requested package and reports an index out of range', async () => {
    const packages = [
      { registryType: 'npm', identifier: 'a', transport: { type: 'stdio' } },
      { registryType: 'pypi', identifier: 'b', version: '2.0', transport: { type: 'stdio' } },
    ];
    const dir = await pluginDir({ 'server.json': serverJson({ packages }) });

    const chosen = await reader.read(dir, { packageIndex: 1 });
    expect(chosen.manifest).toMatchObject({ packageIndex: 1, launch: { command: 'uvx', args: ['b@2.0'] } });

    const outOfRange = await reader.read(dir, { packageIndex: 2 });
    expect(outOfRange.problems).toEqual([
      { path: 'packageIndex', message: '2 is out of range: server.json declares 2 packages (use 0 to 1)' },
    ]);
  });

  it('prefers server.json over plugin.json and says so', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({ remotes: [{ type: 'sse', url: 'https://example.com/sse' }] }),
      'plugin.json': { name: 'other', version: '1', packages: [{ command: ['x'] }] },
    });

    const result = await reader.read(dir);

    expect(result.manifest?.file).toBe('server.json');
    expect(result.notes).toEqual(['plugin.json is ignored: server.json takes precedence']);
  });
});

describe('ManifestReader with plugin.json', () => {
  it('reads a plugin like server-memory, prepending the runtime and resolving the script', async () => {
    const dir = await pluginDir({
      'dist/index.js': '',
      'plugin.json':
        '{"name":"memory","version":"1.0.0","packages":[{"name":"memory","transport_type":"stdio","runtime":"node","command":["dist/index.js"],"environment_variables":[{"name":"MEMORY_FILE_PATH","required":false,"secret":false}]}]}',
    });

    const result = await reader.read(dir);

    expect(result).toEqual({
      manifest: {
        file: 'plugin.json',
        name: 'memory',
        version: '1.0.0',
        launch: { command: 'node', args: [path.join(dir, 'dist/index.js')] },
        env: [{ name: 'MEMORY_FILE_PATH', isRequired: false, isSecret: false }],
        packageIndex: 0,
      },
      problems: [],
      notes: [],
    });
  });

  it('reports schema problems with plugin.json paths', async () => {
    const dir = await pluginDir({
      'plugin.json': {
        name: 'bad',
        packages: [
          { transport_type: 'stdio', command: [], environment_variables: [{ name: 'A B', required: 'no' }] },
          { transport_type: 'sse' },
          { transport_type: 'stdio', command: ['node'], extra: true },
        ],
      },
    });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'plugin.json:version', message: 'is required' },
        { path: 'plugin.json:packages[0].command', message: 'must have at least 1 item' },
        {
          path: 'plugin.json:packages[0].environment_variables[0].name',
          message: 'must be a valid environment variable name (letters, digits and _, not starting with a digit)',
        },
        { path: 'plugin.json:packages[0].environment_variables[0].required', message: 'must be a boolean, got a string' },
        { path: 'plugin.json:packages[1].url', message: 'is required' },
        { path: 'plugin.json:packages[2].extra', message: "unknown property 'extra'" },
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it('reports duplicate environment variable names', async () => {
    const dir = await pluginDir({
      'plugin.json': {
        name: 'p',
        version: '1',
        packages: [{ command: ['srv'], environment_variables: [{ name: 'TOKEN' }, { name: 'TOKEN', secret: true }] }],
      },
    });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual([
      {
        path: 'plugin.json:packages[0].environment_variables[1].name',
        message: "duplicate environment variable 'TOKEN' (already declared at index 0)",
      },
    ]);
  });
});

describe('ManifestReader on broken input', () => {
  it('reports a directory without a manifest', async () => {
    const dir = await pluginDir({ 'README.md': '# nothing' });

    expect(await reader.read(dir)).toEqual({
      problems: [{ path: 'pluginDir', message: `${dir} holds neither server.json nor plugin.json` }],
      notes: [],
    });
  });

  it('reports a missing, relative or non-directory pluginDir', async () => {
    await pluginDir({ 'file.txt': 'x' });

    const missing = await reader.read(path.join(root, 'nope'));
    const relative = await reader.read('plugins/x');
    const notDir = await reader.read(path.join(root, 'file.txt'));

    expect(missing.problems).toEqual([{ path: 'pluginDir', message: `${path.join(root, 'nope')} does not exist` }]);
    expect(relative.problems).toEqual([{ path: 'pluginDir', message: 'plugins/x must be an absolute path' }]);
    expect(notDir.problems).toEqual([{ path: 'pluginDir', message: `${path.join(root, 'file.txt')} is not a directory` }]);
  });

  it('reports invalid JSON with line and column, without quoting the content', async () => {
    const dir = await pluginDir({ 'server.json': '{\n  "name": "secret-value",\n}\n' });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual([
      { path: 'server.json', message: "is not valid JSON: trailing comma before '}' (line 3, column 1)" },
    ]);
  });

  it('reports an empty file, invalid UTF-8 and a manifest that is a directory', async () => {
    const empty = await reader.read(await pluginDir({ 'plugin.json': '' }));
    expect(empty.problems).toEqual([
      { path: 'plugin.json', message: 'is not valid JSON: unexpected end of input (line 1, column 1)' },
    ]);

    await rm(path.join(root, 'plugin.json'));
    const binary = await reader.read(await pluginDir({ 'plugin.json': Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }));
    expect(binary.problems).toEqual([{ path: 'plugin.json', message: 'is not valid UTF-8 text' }]);

    await rm(path.join(root, 'plugin.json'));
    await mkdir(path.join(root, 'plugin.json'));
    const directory = await reader.read(root);
    expect(directory.problems).toEqual([{ path: 'plugin.json', message: 'is not a regular file' }]);
  });

  it('accepts a UTF-8 byte order mark', async () => {
    const dir = await pluginDir({ 'plugin.json': `\uFEFF${JSON.stringify({ name: 'p', version: '1', packages: [{ command: ['srv'] }] })}` });

    const { manifest, problems } = await reader.read(dir);

    expect(problems).toEqual([]);
    expect(manifest?.launch).toEqual({ command: 'srv', args: [] });
  });

  it('reports a file larger than 1 MiB', async () => {
    const dir = await pluginDir({ 'server.json': `{"name": "${'x'.repeat(1024 * 1024)}"}` });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual([{ path: 'server.json', message: 'is larger than 1048576 bytes (1 MiB)' }]);
  });

  it.each([
    ['null', 'must be an object, got null'],
    ['[]', 'must be an object, got an array'],
    ['"server"', 'must be an object, got a string'],
    ['42', 'must be an object, got a number'],
  ])('reports a top level of %s', async (content, message) => {
    const dir = await pluginDir({ 'server.json': content });

    expect((await reader.read(dir)).problems).toEqual([{ path: 'server.json', message }]);
  });

  it('reports nulls where values belong', async () => {
    const dir = await pluginDir({
      'server.json': {
        name: null,
        description: 'd',
        version: '1',
        packages: [null, { registryType: 'npm', identifier: 'x', transport: null, environmentVariables: [{ name: null }] }],
        remotes: null,
      },
    });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual([
      { path: 'server.json:name', message: 'must be a string, got null' },
      { path: 'server.json:packages[0]', message: 'must be an object, got null' },
      { path: 'server.json:packages[1].transport', message: 'must be an object, got null' },
      { path: 'server.json:packages[1].environmentVariables[0].name', message: 'must be a string, got null' },
      { path: 'server.json:remotes', message: 'must be an array, got null' },
    ]);
  });

  it('quotes odd property names in paths and keeps them short', async () => {
    const dir = await pluginDir({
      'server.json': serverJson({ 'a b': 1, ['k'.repeat(500)]: 2, __proto__: 3 }),
    });

    const { problems } = await reader.read(dir);

    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'server.json:["a b"]', message: "unknown property 'a b'" },
        { path: `server.json:["${'k'.repeat(64)}…"]`, message: `unknown property '${'k'.repeat(64)}…'` },
      ]),
    );
  });

  it('refuses huge documents before validating them', async () => {
    const junk = Array.from({ length: 300_000 }, () => '{}').join(',');
    const dir = await pluginDir({ 'server.json': `{"name":"a/b","description":"d","version":"1","packages":[${junk}]}` });

    const started = Date.now();
    const { problems } = await reader.read(dir);

    expect(Date.now() - started).toBeLessThan(2000);
    expect(problems).toEqual([
      { path: 'server.json:packages', message: 'has 300000 items, far more than allowed' },
      { path: 'server.json', message: 'holds more than 20000 values outside _meta and is not validated further' },
    ]);
  });

  it('ignores deeply nested data in _meta', async () => {
    const nested = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const dir = await pluginDir({
      'server.json': `{"name":"a/b","description":"d","version":"1","_meta":{"x":${nested}},"remotes":[{"type":"sse","url":"https://example.com/sse"}]}`,
    });

    const { manifest, problems } = await reader.read(dir);

    expect(problems).toEqual([]);
    expect(manifest?.remote?.url).toBe('https://example.com/sse');
  });

  it('caps the number of problems reported', async () => {
    const packages = Array.from({ length: 50 }, () => ({}));
    const dir = await pluginDir({ 'server.json': serverJson({ packages }) });

    const { problems } = await reader.read(dir);

    expect(problems).toHaveLength(MAX_MANIFEST_PROBLEMS + 1);
    expect(problems[0]).toEqual({ path: 'server.json:packages[0].registryType', message: 'is required' });
    expect(problems[MAX_MANIFEST_PROBLEMS]).toEqual({ path: 'server.json', message: '50 more problems not shown' });
  });
});

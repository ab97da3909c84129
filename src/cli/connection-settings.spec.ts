import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFilePath, keyAdvice, resolveConnection } from './connection-settings.js';
import { UsageError } from './errors.js';

describe('connection settings', () => {
  let dir: string;
  const write = (content: string, mode = 0o600) => {
    mkdirSync(join(dir, 'toolplane'), { recursive: true });
    const file = join(dir, 'toolplane', 'cli.json');
    writeFileSync(file, content);
    chmodSync(file, mode);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolplane-cli-settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/toolplane/cli.json');
    expect(configFilePath({ HOME: '/home/a' })).toBe('/home/a/.config/toolplane/cli.json');
  });

  it('takes a flag over the environment over the file, each value on its own', () => {
    write(JSON.stringify({ url: 'http://file:1', key: 'file-key' }));
    const env = { XDG_CONFIG_HOME: dir, TOOLPLANE_API_KEY: 'env-key' };
    expect(resolveConnection({}, env)).toMatchObject({ url: 'http://file:1', key: 'env-key', origin: { url: 'file', key: 'env' } });
    expect(resolveConnection({ key: 'flag-key', url: 'http://flag:2/' }, env)).toMatchObject({ url: 'http://flag:2', key: 'flag-key', origin: { url: 'flag', key: 'flag' } });
  });

  it('defaults to the local Toolplane without a key', () => {
    expect(resolveConnection({}, { XDG_CONFIG_HOME: dir, TOOLPLANE_DATA_DIR: join(dir, 'no-data') })).toMatchObject({
      url: 'http://127.0.0.1:8080',
      key: undefined,
      origin: { url: 'default', key: 'none' },
    });
  });

  it('takes the admin key of the data directory when nothing else gives a key and the server is on this host', () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'admin.key'), 'tp_from_the_data_dir\n', { mode: 0o600 });
    const env = { XDG_CONFIG_HOME: dir, TOOLPLANE_DATA_DIR: data };
    expect(resolveConnection({}, env)).toMatchObject({ key: 'tp_from_the_data_dir', origin: { key: 'admin-key' }, adminKeyFile: join(data, 'admin.key') });
    expect(resolveConnection({ url: 'http://localhost:9000' }, env)).toMatchObject({ key: 'tp_from_the_data_dir' });
    expect(resolveConnection({ url: 'http://[::1]:9000' }, env)).toMatchObject({ key: 'tp_from_the_data_dir' });
    // Another host never gets it, and any key given otherwise wins.
    expect(resolveConnection({ url: 'https://toolplane.example.com' }, env)).toMatchObject({ key: undefined, origin: { key: 'none' } });
    expect(resolveConnection({}, { ...env, TOOLPLANE_API_KEY: 'env-key' })).toMatchObject({ key: 'env-key', origin: { key: 'env' } });
  });

  it('says how to give a key: the flag, the environment, the config file and the admin key file', () => {
    const settings = resolveConnection({}, { XDG_CONFIG_HOME: dir, TOOLPLANE_DATA_DIR: join(dir, 'no-data') });
    const advice = keyAdvice(settings);
    expect(advice).toContain('--key');
    expect(advice).toContain('TOOLPLANE_API_KEY');
    expect(advice).toContain(join(dir, 'toolplane', 'cli.json'));
    expect(advice).toContain(join(dir, 'no-data', 'admin.key'));
    expect(advice).not.toMatch(/Authorization|Bearer|header/i);
  });

  it('warns about a key in a file others may read', () => {
    write(JSON.stringify({ key: 'k' }), 0o644);
    expect(resolveConnection({}, { XDG_CONFIG_HOME: dir }).warnings).toEqual([expect.stringContaining('chmod 600')]);
  });

  it('refuses a broken file, unknown settings and a URL that is not http', () => {
    write('{"url": ');
    expect(() => resolveConnection({}, { XDG_CONFIG_HOME: dir })).toThrow(UsageError);
    write(JSON.stringify({ uri: 'x' }));
    expect(() => resolveConnection({}, { XDG_CONFIG_HOME: dir })).toThrow('unknown setting "uri"');
    expect(() => resolveConnection({ url: 'ftp://x' }, { XDG_CONFIG_HOME: join(dir, 'empty') })).toThrow('must be http or https');
  });
});

import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isLoopback } from '../config/app-config.js';
import { UsageError } from './errors.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export interface ConnectionSettings {
  url: string;
  key?: string;
  /** Where each value came from, for `doctor` and error messages. */
  origin: { url: SettingOrigin; key: KeyOrigin };
  /** The config file read (it may not exist). */
  configFile: string;
  /** The admin key file of a Toolplane on this host (`TOOLPLANE_DATA_DIR`, by default ./.toolplane): read when nothing else gives a key. */
  adminKeyFile: string;
  /** A note about the config file (e.g. readable by others), shown on stderr. */
  warnings: string[];
}

export type SettingOrigin = 'flag' | 'env' | 'file' | 'default';
export type KeyOrigin = Exclude<SettingOrigin, 'default'> | 'admin-key' | 'none';

export interface ConnectionFlags {
  url?: string;
  key?: string;
}

/** `$XDG_CONFIG_HOME/toolplane/cli.json`, by default `~/.config/toolplane/cli.json`. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'toolplane', 'cli.json');
}

/**
 * Where the CLI connects and with which key: a flag wins over the environment, which wins over the
 * config file. Without a key from any of them, a Toolplane on this host is asked with the admin key
 * its data directory holds, when this user may read it (the file `npm start` writes).
 */
export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): ConnectionSettings {
  const path = configFilePath(env);
  const file = readConfigFile(path);
  const warnings: string[] = [];
  const pick = (flag: string | undefined, envValue: string | undefined, fileValue: string | undefined): [string | undefined, 'flag' | 'env' | 'file' | 'none'] => {
    if (flag?.trim()) return [flag.trim(), 'flag'];
    if (envValue?.trim()) return [envValue.trim(), 'env'];
    if (fileValue?.trim()) return [fileValue.trim(), 'file'];
    return [undefined, 'none'];
  };
  const [url, urlOrigin] = pick(flags.url, env.TOOLPLANE_URL, file.url);
  const [givenKey, givenOrigin] = pick(flags.key, env.TOOLPLANE_API_KEY, file.key);
  if (givenOrigin === 'file' && file.mode !== undefined && (file.mode & 0o077) !== 0) {
    warnings.push(`${path} holds an API key and is readable by other users: chmod 600 ${path}`);
  }
  const resolvedUrl = normalizeUrl(url ?? DEFAULT_URL, urlOrigin === 'none' ? 'default' : urlOrigin, path);
  const adminKeyFile = join(resolve(env.TOOLPLANE_DATA_DIR?.trim() || '.toolplane'), 'admin.key');
  let [key, keyOrigin]: [string | undefined, KeyOrigin] = [givenKey, givenOrigin];
  if (key === undefined && isOnThisHost(resolvedUrl)) {
    key = readAdminKey(adminKeyFile);
    if (key !== undefined) keyOrigin = 'admin-key';
  }
  return { url: resolvedUrl, key, origin: { url: urlOrigin === 'none' ? 'default' : urlOrigin, key: keyOrigin }, configFile: path, adminKeyFile, warnings };
}

/** How to give the CLI a key, for when the server refused it or asked for one. */
export function keyAdvice(settings: ConnectionSettings): string {
  const ways = `--key KEY, the TOOLPLANE_API_KEY environment variable, or "key" in ${settings.configFile}`;
  if (settings.origin.key === 'none') {
    return [
      `give one with ${ways}.`,
      `A Toolplane on this host keeps its admin key in ${settings.adminKeyFile} (the data directory, TOOLPLANE_DATA_DIR): the CLI reads it when run from there or with TOOLPLANE_DATA_DIR set.`,
      'An admin creates other keys with "toolplane keys create NAME --role ROLE".',
    ].join('\n');
  }
  return `the key comes from ${describeOrigin(settings.origin.key, settings)}; give another with ${ways}.`;
}

function isOnThisHost(url: string): boolean {
  return isLoopback(new URL(url).hostname);
}

/** The admin key file's key; none when it is missing or unreadable (another user's data directory). */
function readAdminKey(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

interface ConfigFile {
  url?: string;
  key?: string;
  mode?: number;
}

function readConfigFile(path: string): ConfigFile {
  let text: string;
  let mode: number;
  try {
    text = readFileSync(path, 'utf8');
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${path} must hold a JSON object like {"url": "…", "key": "…"}`);
  const { url, key, ...rest } = parsed as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new UsageError(`${path}: unknown setting ${unknown.map((k) => `"${k}"`).join(', ')} (known: url, key)`);
  if (url !== undefined && typeof url !== 'string') throw new UsageError(`${path}: "url" must be a string`);
  if (key !== undefined && typeof key !== 'string') throw new UsageError(`${path}: "key" must be a string`);
  return { url, key, mode };
}

function normalizeUrl(value: string, origin: SettingOrigin, configFile: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new UsageError(`the Toolplane URL "${value}" (from ${describeOrigin(origin, { configFile })}) is not a URL, e.g. ${DEFAULT_URL}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`the Toolplane URL must be http or https (got "${value}")`);
  return parsed.toString().replace(/\/+$/, '');
}

export function describeOrigin(origin: SettingOrigin | KeyOrigin, files: { configFile: string; adminKeyFile?: string }): string {
  switch (origin) {
    case 'flag':
      return 'the command line';
    case 'env':
      return 'the environment';
    case 'file':
      return files.configFile;
    case 'default':
      return 'the default';
    case 'admin-key':
      return files.adminKeyFile ?? 'the admin key file';
    case 'none':
      return 'nowhere';
  }
}

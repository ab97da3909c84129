import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './errors.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export interface ConnectionSettings {
  url: string;
  key?: string;
  /** Where each value came from, for `doctor` and error messages. */
  origin: { url: SettingOrigin; key: SettingOrigin | 'none' };
  /** A note about the config file (e.g. readable by others), shown on stderr. */
  warnings: string[];
}

export type SettingOrigin = 'flag' | 'env' | 'file' | 'default';

export interface ConnectionFlags {
  url?: string;
  key?: string;
}

/** `$XDG_CONFIG_HOME/toolplane/cli.json`, by default `~/.config/toolplane/cli.json`. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'toolplane', 'cli.json');
}

/** Where the CLI connects and with which key: a flag wins over the environment, which wins over the config file. */
export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): ConnectionSettings {
  const path = configFilePath(env);
  const file = readConfigFile(path);
  const warnings: string[] = [];
  const pick = (flag: string | undefined, envValue: string | undefined, fileValue: string | undefined): [string | undefined, SettingOrigin | 'none'] => {
    if (flag?.trim()) return [flag.trim(), 'flag'];
    if (envValue?.trim()) return [envValue.trim(), 'env'];
    if (fileValue?.trim()) return [fileValue.trim(), 'file'];
    return [undefined, 'none'];
  };
  const [url, urlOrigin] = pick(flags.url, env.TOOLPLANE_URL, file.url);
  const [key, keyOrigin] = pick(flags.key, env.TOOLPLANE_API_KEY, file.key);
  if (keyOrigin === 'file' && file.mode !== undefined && (file.mode & 0o077) !== 0) {
    warnings.push(`${path} holds an API key and is readable by other users: chmod 600 ${path}`);
  }
  const resolvedUrl = normalizeUrl(url ?? DEFAULT_URL, urlOrigin === 'none' ? 'default' : urlOrigin);
  return { url: resolvedUrl, key, origin: { url: urlOrigin === 'none' ? 'default' : urlOrigin, key: keyOrigin }, warnings };
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

function normalizeUrl(value: string, origin: SettingOrigin): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new UsageError(`the Toolplane URL "${value}" (from ${describeOrigin(origin)}) is not a URL, e.g. ${DEFAULT_URL}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`the Toolplane URL must be http or https (got "${value}")`);
  return parsed.toString().replace(/\/+$/, '');
}

export function describeOrigin(origin: SettingOrigin | 'none'): string {
  switch (origin) {
    case 'flag':
      return 'the command line';
    case 'env':
      return 'the environment';
    case 'file':
      return configFilePath();
    case 'default':
      return 'the default';
    case 'none':
      return 'nowhere';
  }
}

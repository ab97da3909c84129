import { processEnvironment } from '../../config/host-environment.js';
/**
 * Variables of Toolplane's own environment a stdio server may inherit. Everything else
 * (DATABASE_URL, TOOLPLANE_*, cloud credentials, ...) stays in this process.
 */
const INHERITED_POSIX = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'USER', 'LOGNAME', 'SHELL', 'TERM'];
const INHERITED_WINDOWS = [
  'PATH',
  'PATHEXT',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMFILES',
  'PROCESSOR_ARCHITECTURE',
  'LANG',
  'TZ',
];

export const INHERITED_ENV_KEYS: readonly string[] = process.platform === 'win32' ? INHERITED_WINDOWS : INHERITED_POSIX;

const VALID_NAME = /^[^=\0]+$/;

/**
 * The complete environment of a stdio child: the allowlisted part of `parentEnv` plus the
 * source's declared variables (which win). Throws on names/values the OS would reject,
 * naming the variable but never its value.
 */
export function buildChildEnvironment(
  declared: Record<string, string>,
  parentEnv: NodeJS.ProcessEnv = processEnvironment(),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_KEYS) {
    const value = lookup(parentEnv, key);
    // Exported shell functions ("() { ...") are never meant for a child.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  for (const [key, value] of Object.entries(declared)) {
    if (!VALID_NAME.test(key)) throw new Error(`invalid environment variable name: ${JSON.stringify(key)}`);
    if (typeof value !== 'string' || value.includes('\0')) {
      throw new Error(`invalid value for environment variable ${key}`);
    }
    env[key] = value;
  }
  return env;
}

function lookup(env: NodeJS.ProcessEnv, key: string): string | undefined {
  if (process.platform !== 'win32') return env[key];
  // Windows variable names are case-insensitive.
  const match = Object.keys(env).find((name) => name.toUpperCase() === key);
  return match === undefined ? undefined : env[match];
}

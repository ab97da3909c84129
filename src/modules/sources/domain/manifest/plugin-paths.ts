import path from 'node:path';

const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * The absolute path of `candidate` when it is a relative path naming an existing entry
 * inside `pluginDir`; otherwise `candidate` unchanged. Paths that climb out of the
 * directory are left alone, as are flags and URLs.
 */
export function resolveInPluginDir(pluginDir: string, candidate: string, exists: (absolutePath: string) => boolean): string {
  if (candidate === '' || candidate.startsWith('-') || path.isAbsolute(candidate) || URL_LIKE.test(candidate)) {
    return candidate;
  }
  const root = path.resolve(pluginDir);
  const absolute = path.resolve(root, candidate);
  const relative = path.relative(root, absolute);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return candidate;
  }
  return exists(absolute) ? absolute : candidate;
}

/** A bare command name (`node`, `uvx`) is looked up on PATH; anything with a separator is a path. */
export function isBareCommand(command: string): boolean {
  return !command.includes('/') && !command.includes('\\');
}

export function isUrlLike(value: string): boolean {
  return URL_LIKE.test(value);
}

/**
 * A path as a POSIX system resolves it: relative to `/`, `.` and `..` resolved (never above the
 * root), repeated `/` collapsed, no trailing `/` (but the root itself). Only the text counts, as
 * it must before the path reaches the tool: symbolic links are the upstream's to resolve.
 */
export function normalisePath(path: string): string {
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return `/${kept.join('/')}`;
}

/**
 * Why a path cannot be judged by its text, or undefined: a NUL byte (C truncates the path there),
 * percent-encoding (`%2e%2e` decoded later is `..`), a backslash (a separator to Windows) or a
 * leading `~` (a shell's home directory).
 */
export function suspiciousPath(path: string): string | undefined {
  if (path.includes('\0')) return 'holds a NUL byte';
  if (PERCENT_ENCODED.test(path)) return 'is percent-encoded';
  if (path.includes('\\')) return 'holds a backslash';
  if (path.startsWith('~')) return 'starts with ~';
  return undefined;
}

const PERCENT_ENCODED = /%[0-9A-Fa-f]{2}/;

/** Whether the normalised `path` is the normalised `prefix` or a path under it (`/srv/data` is not under `/srv/dat`). */
export function isUnder(path: string, prefix: string): boolean {
  if (prefix === '/') return true;
  return path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === SLASH);
}

const SLASH = 0x2f;

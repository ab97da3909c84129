import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Toolplane's version as its package.json gives it, found from this file up (it sits at another
 * depth in the build than in the sources); undefined if there is none.
 */
export function packageVersion(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (manifest.name === 'toolplane' && manifest.version) return manifest.version;
      } catch {
        // not a package.json to read: look further up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

import { chownSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** A source id that is safe as one path segment (Toolplane's are UUIDs); anything else never becomes a path. */
const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Each source's persistent home for its sandboxed plugins, `<root>/<sourceId>/home`: what a plugin
 * keeps there (npm's and other tools' caches, its own state) outlives its process, so a transient
 * `npx` source downloads its package once. Kept in the data directory, which the sandbox hides, so
 * only the source's own plugins see it (bound as their HOME); 0700 and owned by the sandbox user.
 */
export class PluginHomes {
  constructor(
    private readonly root: string,
    /** The sandbox user when Toolplane switches to one (as root); otherwise plugins run as Toolplane. */
    private readonly owner?: { uid: number; gid: number },
  ) {}

  /** The home of `sourceId`, made when missing. */
  prepare(sourceId: string): string {
    const home = this.pathOf(sourceId);
    mkdirSync(join(this.root, sourceId), { recursive: true, mode: 0o700 });
    try {
      mkdirSync(home, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return home;
      throw error;
    }
    if (this.owner) chownSync(home, this.owner.uid, this.owner.gid);
    return home;
  }

  /** Deletes the home of `sourceId` and everything its plugins kept there. */
  async remove(sourceId: string): Promise<void> {
    if (!SOURCE_ID.test(sourceId)) return;
    await rm(join(this.root, sourceId), { recursive: true, force: true });
  }

  private pathOf(sourceId: string): string {
    if (!SOURCE_ID.test(sourceId)) throw new Error(`not a source id: ${JSON.stringify(sourceId.slice(0, 80))}`);
    return join(this.root, sourceId, 'home');
  }
}

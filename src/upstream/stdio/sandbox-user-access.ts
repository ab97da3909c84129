import { stat } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { type LaunchPaths, PluginAccess } from '../../modules/sources/domain/ports.js';

const READ = 4;
const EXECUTE = 1;

/**
 * Checks a launch's paths with the permission bits the kernel will apply to the sandbox user
 * (uid/gid, no supplementary groups): every parent directory searchable, the plugin directory
 * readable and searchable, the command executable, path arguments readable. Without a user
 * switch (no sandbox, or Toolplane not root) plugins run as Toolplane and there is nothing to check.
 */
export class SandboxUserAccess extends PluginAccess {
  constructor(private readonly runAs: { uid: number; gid: number } | undefined) {
    super();
  }

  async problems(paths: LaunchPaths): Promise<[string, string][]> {
    if (!this.runAs) return [];
    const found: [string, string][] = [];
    const check = async (field: string, path: string | undefined, need: number, what: string) => {
      if (!path || !isAbsolute(path)) return;
      const blocked = await this.firstBlocked(path, need);
      if (blocked) {
        const { uid, gid } = this.runAs!;
        found.push([field, `${blocked === path ? path : `${path}: its parent ${blocked}`} is not ${blocked === path ? what : 'searchable'} by uid ${uid}/gid ${gid}, the user sandboxed plugins run as (grant it, e.g. chmod o+rx, or set TOOLPLANE_SANDBOX_UID/GID)`]);
      }
    };
    await check('command', paths.command, EXECUTE, 'executable');
    await check('pluginDir', paths.pluginDir, READ | EXECUTE, 'readable and searchable');
    await check('cwd', paths.cwd, EXECUTE, 'searchable');
    for (const arg of paths.args) await check('args', arg, READ, 'readable');
    return found;
  }

  /** `path` itself or the first parent directory the user cannot pass; undefined when all is well (or the path is gone). */
  private async firstBlocked(path: string, need: number): Promise<string | undefined> {
    const parents: string[] = [];
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) parents.unshift(dir);
    for (const dir of parents) if (!(await this.allows(dir, EXECUTE))) return dir;
    return (await this.allows(path, need)) ? undefined : path;
  }

  private async allows(path: string, need: number): Promise<boolean> {
    let info;
    try {
      info = await stat(path);
    } catch {
      return true; // missing paths are reported by the other checks
    }
    const { uid, gid } = this.runAs!;
    const bits = info.uid === uid ? (info.mode >> 6) & 7 : info.gid === gid ? (info.mode >> 3) & 7 : info.mode & 7;
    return (bits & need) === need;
  }
}

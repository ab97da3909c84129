import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { CommandLocator, CommandLookup } from '../domain/ports.js';

export class FilesystemCommandLocator extends CommandLocator {
  constructor(private readonly searchPath: string) {
    super();
  }

  async locate(command: string): Promise<CommandLookup> {
    if (command.includes('\0')) return { found: false, reason: 'contains a NUL character' };
    if (isAbsolute(command)) {
      return (await isExecutableFile(command))
        ? { found: true, path: command }
        : { found: false, reason: `${command} is not an existing executable file` };
    }
    if (command.includes('/')) {
      return { found: false, reason: 'a path must be absolute (or give a bare command name found on PATH)' };
    }
    for (const dir of this.searchPath.split(delimiter).filter(Boolean)) {
      const candidate = join(dir, command);
      if (await isExecutableFile(candidate)) return { found: true, path: candidate };
    }
    return { found: false, reason: `"${command}" was not found on PATH` };
  }

  async isDirectory(path: string): Promise<boolean> {
    try {
      return (await stat(path)).isDirectory();
    } catch {
      return false;
    }
  }
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

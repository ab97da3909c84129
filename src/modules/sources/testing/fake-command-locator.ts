import { isAbsolute } from 'node:path';
import { CommandLocator, type CommandLookup } from '../domain/ports.js';

/** A host with the commands and directories given, and nothing else. */
export class FakeCommandLocator extends CommandLocator {
  private readonly commands: Map<string, string>;
  private readonly directories: Set<string>;

  /** `commands`: a bare name or absolute path, and where it is found. */
  constructor(commands: Record<string, string> = { node: '/usr/bin/node' }, directories: readonly string[] = []) {
    super();
    this.commands = new Map(Object.entries(commands));
    this.directories = new Set(directories);
  }

  addDirectory(path: string): this {
    this.directories.add(path);
    return this;
  }

  async locate(command: string): Promise<CommandLookup> {
    const path = this.commands.get(command);
    if (path !== undefined) return { found: true, path };
    return { found: false, reason: isAbsolute(command) ? `${command} is not an existing executable file` : `"${command}" was not found on PATH` };
  }

  async isDirectory(path: string): Promise<boolean> {
    return this.directories.has(path);
  }
}

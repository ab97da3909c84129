import { PluginAccess, type LaunchPaths } from '../domain/ports.js';

/** Whether the sandbox user reaches a launch's paths: every path may be reached unless refused here. */
export class FakePluginAccess extends PluginAccess {
  private readonly refused = new Map<string, [string, string]>();
  /** Every launch asked about, in order. */
  readonly asked: LaunchPaths[] = [];

  /** `path` (a command, directory or argument) cannot be reached; reported under `field`. */
  refuse(path: string, field: string, message: string): this {
    this.refused.set(path, [field, message]);
    return this;
  }

  async problems(paths: LaunchPaths): Promise<[string, string][]> {
    this.asked.push(structuredClone(paths));
    const named = [paths.command, paths.pluginDir, paths.cwd, ...paths.args].filter((path): path is string => path !== undefined);
    return named.flatMap((path) => (this.refused.has(path) ? [this.refused.get(path)!] : []));
  }
}

import type { EnvReferencePolicy } from '../../../config/env-reference-policy.js';
import type { ManifestReadResult } from './manifest/plugin-manifest.js';

/** Reads and validates the manifest in a plugin directory. */
export abstract class ManifestLoader {
  abstract read(pluginDir: string, options?: { packageIndex?: number }): Promise<ManifestReadResult>;
}

export type CommandLookup = { found: true; path: string } | { found: false; reason: string };

/** Finds an executable without a shell: a bare name on PATH, or an existing absolute file. */
export abstract class CommandLocator {
  abstract locate(command: string): Promise<CommandLookup>;
  abstract isDirectory(path: string): Promise<boolean>;
}

/** Toolplane's own environment, for `${env:NAME}` references: which a source may make, and their values. */
export abstract class HostEnvironment implements EnvReferencePolicy {
  abstract get(name: string): string | undefined;
  abstract refusal(name: string): string | undefined;
}

/** What a stdio launch needs to reach on the host, for the user plugins run as. */
export interface LaunchPaths {
  /** The executable as found (absolute). */
  command?: string;
  pluginDir?: string;
  cwd?: string;
  /** Arguments that are absolute paths of existing files (scripts and the like). */
  args: string[];
}

/** Whether the (unprivileged) user sandboxed plugins run as can reach a launch's paths; [field, message] per problem. */
/** Port: whether a remote source's URL may be reached (its host as written, and every address it resolves to now). */
export abstract class RemoteHostCheck {
  abstract problem(url: URL): Promise<string | undefined>;
}

export abstract class PluginAccess {
  abstract problems(paths: LaunchPaths): Promise<[string, string][]>;
}

import type { VariableDeclaration } from './env-declaration.js';

export type ManifestFileName = 'server.json' | 'plugin.json';

export interface ManifestLaunch {
  command: string;
  args: string[];
}

export interface ManifestRemote {
  type: 'streamable-http' | 'sse';
  url: string;
  headers: VariableDeclaration[];
}

/** What Toolplane takes from the manifest in a plugin directory. */
export interface PluginManifest {
  file: ManifestFileName;
  name: string;
  version: string;
  description?: string;
  /** Set for a stdio package whose command could be derived. */
  launch?: ManifestLaunch;
  /** Set when the chosen entry is reached over HTTP instead of launched. */
  remote?: ManifestRemote;
  env: VariableDeclaration[];
  /** Index of the chosen entry in `packages`; -1 when `remote` comes from server.json `remotes[0]`. */
  packageIndex: number;
}

/** `path` names the file and the JSON path (`server.json:packages[0].version`), or `pluginDir` / `packageIndex`. */
export interface ManifestProblem {
  path: string;
  message: string;
}

export interface ManifestMapping {
  /** Present only when there are no problems. */
  manifest?: PluginManifest;
  problems: ManifestProblem[];
}

export interface ManifestReadResult extends ManifestMapping {
  /** Informational remarks, e.g. a plugin.json ignored in favour of server.json. */
  notes: string[];
}

/** What the mapping from a schema-valid document needs to know about the plugin directory. */
export interface ManifestMappingContext {
  /** Absolute path of the plugin directory. */
  pluginDir: string;
  /** Whether an absolute path exists; injected so the mapping stays free of I/O. */
  exists: (absolutePath: string) => boolean;
  /** 0-based package to use instead of the first stdio package. */
  packageIndex?: number;
}

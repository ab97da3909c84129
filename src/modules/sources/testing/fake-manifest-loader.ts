import type { ManifestProblem, ManifestReadResult, PluginManifest } from '../domain/manifest/plugin-manifest.js';
import { ManifestLoader } from '../domain/ports.js';

/** Plugin directories and what their manifest says: one manifest per package, or the problems of a broken one. */
export class FakeManifestLoader extends ManifestLoader {
  private readonly dirs = new Map<string, PluginManifest[] | ManifestProblem[]>();
  /** Every read, in order. */
  readonly reads: { pluginDir: string; packageIndex?: number }[] = [];

  /** A directory whose manifest lists these packages (the first is chosen unless `packageIndex` says otherwise). */
  place(pluginDir: string, ...packages: PluginManifest[]): this {
    this.dirs.set(pluginDir, packages);
    return this;
  }

  /** A directory whose manifest does not check out. */
  breakManifest(pluginDir: string, problems: ManifestProblem[]): this {
    this.dirs.set(pluginDir, problems);
    return this;
  }

  async read(pluginDir: string, options: { packageIndex?: number } = {}): Promise<ManifestReadResult> {
    this.reads.push({ pluginDir, ...(options.packageIndex === undefined ? {} : { packageIndex: options.packageIndex }) });
    const entry = this.dirs.get(pluginDir);
    if (!entry) return { problems: [{ path: 'pluginDir', message: 'is not a directory with a server.json or plugin.json' }], notes: [] };
    if (!isManifests(entry)) return { problems: structuredClone(entry), notes: [] };
    const index = options.packageIndex ?? 0;
    const manifest = entry[index];
    if (!manifest) return { problems: [{ path: 'packageIndex', message: `must be below ${entry.length}` }], notes: [] };
    return { manifest: structuredClone({ ...manifest, packageIndex: index }), problems: [], notes: [] };
  }
}

function isManifests(entry: PluginManifest[] | ManifestProblem[]): entry is PluginManifest[] {
  return entry.length > 0 && 'file' in entry[0]!;
}

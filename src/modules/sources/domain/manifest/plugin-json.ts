import path from 'node:path';
import { collectDeclarations } from './declarations.js';
import { type JsonPathSegment, manifestPath } from './manifest-path.js';
import { checkPackageIndex } from './package-index.js';
import { unattended } from './package-runner.js';
import type { ManifestLaunch, ManifestMapping, ManifestMappingContext, ManifestProblem, PluginManifest } from './plugin-manifest.js';
import { isBareCommand, resolveInPluginDir } from './plugin-paths.js';

/* The shape of a plugin.json (Toolplane's own plugin format) once it passed the schema. */

export type PluginJsonTransportType = 'stdio' | 'streamable-http' | 'sse';

export interface PluginJsonEnvironmentVariable {
  name: string;
  description?: string;
  required?: boolean;
  secret?: boolean;
  default?: string;
}

export interface PluginJsonPackage {
  name?: string;
  /** Defaults to stdio. */
  transport_type?: PluginJsonTransportType;
  runtime?: string;
  /** argv: `["node", "dist/index.js"]`, or `["dist/index.js"]` with `runtime: "node"`. Required for stdio. */
  command?: string[];
  /** Required for streamable-http and sse. */
  url?: string;
  environment_variables?: PluginJsonEnvironmentVariable[];
}

export interface PluginJsonDocument {
  name: string;
  version: string;
  description?: string;
  packages: PluginJsonPackage[];
}

const FILE = 'plugin.json';
const at = (...segments: JsonPathSegment[]): string => manifestPath(FILE, segments);

/** Maps a schema-valid plugin.json to a manifest. Without `packageIndex` the first stdio package is used. */
export function mapPluginJson(doc: PluginJsonDocument, context: ManifestMappingContext): ManifestMapping {
  const problems: ManifestProblem[] = [];

  const env = doc.packages.map((pkg, i) => {
    const result = collectDeclarations(
      (pkg.environment_variables ?? []).map((v) => ({
        name: v.name,
        description: v.description,
        isRequired: v.required,
        isSecret: v.secret,
        default: v.default,
      })),
      {
        kind: 'environment variable',
        caseInsensitive: false,
        at: (index, field) => {
          const base: JsonPathSegment[] = ['packages', i, 'environment_variables', index];
          return field === undefined ? at(...base) : at(...base, field);
        },
      },
    );
    problems.push(...result.problems);
    return result.declarations;
  });

  let index: number;
  if (context.packageIndex !== undefined) {
    const problem = checkPackageIndex(FILE, context.packageIndex, doc.packages.length);
    if (problem) return { problems: [...problems, problem] };
    index = context.packageIndex;
  } else {
    // The schema demands at least one package; with no stdio one, the first (remote) package is used.
    index = Math.max(0, doc.packages.findIndex((pkg) => transportOf(pkg) === 'stdio'));
  }

  const pkg = doc.packages[index]!;
  const manifest: PluginManifest = {
    file: FILE,
    name: doc.name,
    version: doc.version,
    env: env[index]!,
    packageIndex: index,
  };
  if (doc.description !== undefined) manifest.description = doc.description;

  const transport = transportOf(pkg);
  if (transport === 'stdio') {
    if (pkg.command) manifest.launch = deriveLaunch(pkg.command, pkg.runtime, context);
  } else if (pkg.url !== undefined) {
    manifest.remote = { type: transport, url: pkg.url, headers: [] };
  }

  return problems.length > 0 ? { problems } : { manifest, problems };
}

function transportOf(pkg: PluginJsonPackage): PluginJsonTransportType {
  return pkg.transport_type ?? 'stdio';
}

/**
 * `runtime` is prepended unless the argv already starts with it. A command with a path
 * separator and the arguments are resolved against the plugin directory when they name
 * something inside it; a bare command name is left for a PATH lookup.
 */
function deriveLaunch(command: string[], runtime: string | undefined, context: ManifestMappingContext): ManifestLaunch {
  const first = command[0]!;
  const startsWithRuntime = runtime === undefined || first === runtime || path.basename(first) === runtime;
  const argv = startsWithRuntime ? [...command] : [runtime, ...command];
  const [executable, ...args] = argv as [string, ...string[]];
  return {
    command: isBareCommand(executable) ? executable : resolveInPluginDir(context.pluginDir, executable, context.exists),
    args: unattended(executable, args.map((arg) => resolveInPluginDir(context.pluginDir, arg, context.exists))),
  };
}

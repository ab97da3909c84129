import { collectDeclarations } from './declarations.js';
import type { VariableDeclaration } from './env-declaration.js';
import { type JsonPathSegment, manifestPath, truncate } from './manifest-path.js';
import { checkPackageIndex } from './package-index.js';
import { unattended } from './package-runner.js';
import type { ManifestLaunch, ManifestMapping, ManifestMappingContext, ManifestProblem, PluginManifest } from './plugin-manifest.js';
import { isUrlLike, resolveInPluginDir } from './plugin-paths.js';

/* The shape of a server.json (MCP registry format) once it passed the schema. */

export type ServerJsonRegistryType = 'npm' | 'pypi' | 'oci' | 'nuget' | 'mcpb';
export type ServerJsonInputFormat = 'string' | 'number' | 'boolean' | 'filepath';

export interface ServerJsonInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  default?: string;
  format?: ServerJsonInputFormat;
  choices?: string[];
  /** May contain `{name}` placeholders that refer to `variables`. */
  value?: string;
  placeholder?: string;
  _meta?: Record<string, unknown>;
}

export interface ServerJsonInputWithVariables extends ServerJsonInput {
  variables?: Record<string, ServerJsonInput>;
}

/** An environment variable or an HTTP header. */
export interface ServerJsonKeyValueInput extends ServerJsonInputWithVariables {
  name: string;
}

export interface ServerJsonPositionalArgument extends ServerJsonInputWithVariables {
  type: 'positional';
  valueHint?: string;
  isRepeated?: boolean;
}

export interface ServerJsonNamedArgument extends ServerJsonInputWithVariables {
  type: 'named';
  /** The flag including its dashes, e.g. `--port`. */
  name: string;
  isRepeated?: boolean;
}

export type ServerJsonArgument = ServerJsonPositionalArgument | ServerJsonNamedArgument;

export type ServerJsonTransport =
  | { type: 'stdio'; url?: string; headers?: ServerJsonKeyValueInput[]; _meta?: Record<string, unknown> }
  | { type: 'streamable-http' | 'sse'; url: string; headers?: ServerJsonKeyValueInput[]; _meta?: Record<string, unknown> };

export interface ServerJsonPackage {
  registryType: ServerJsonRegistryType;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: ServerJsonTransport;
  runtimeArguments?: ServerJsonArgument[];
  packageArguments?: ServerJsonArgument[];
  environmentVariables?: ServerJsonKeyValueInput[];
  _meta?: Record<string, unknown>;
}

export interface ServerJsonRemote {
  type: 'streamable-http' | 'sse';
  url: string;
  headers?: ServerJsonKeyValueInput[];
  variables?: Record<string, ServerJsonInput>;
  _meta?: Record<string, unknown>;
}

export interface ServerJsonDocument {
  $schema?: string;
  name: string;
  title?: string;
  description: string;
  version: string;
  websiteUrl?: string;
  repository?: { url: string; source: string; id?: string; subfolder?: string };
  icons?: unknown[];
  packages?: ServerJsonPackage[];
  remotes?: ServerJsonRemote[];
  _meta?: Record<string, unknown>;
}

const FILE = 'server.json';
const at = (...segments: JsonPathSegment[]): string => manifestPath(FILE, segments);

/** Runtimes implied by a registry when the package gives no `runtimeHint`. */
const DEFAULT_RUNTIME: Partial<Record<ServerJsonRegistryType, string>> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

type Choice = { kind: 'package'; index: number } | { kind: 'remote'; index: number };

/**
 * Maps a schema-valid server.json to a manifest. Without `packageIndex` the first stdio
 * package is used, then the first remote, then the first (HTTP) package.
 */
export function mapServerJson(doc: ServerJsonDocument, context: ManifestMappingContext): ManifestMapping {
  const problems: ManifestProblem[] = [];
  const packages = doc.packages ?? [];
  const remotes = doc.remotes ?? [];

  // Every list is checked, not only the chosen entry's, so one read reports the whole file.
  const packageEnv = packages.map((pkg, i) =>
    declarations(pkg.environmentVariables, 'environment variable', ['packages', i, 'environmentVariables'], problems),
  );
  const packageHeaders = packages.map((pkg, i) =>
    declarations(pkg.transport.headers, 'header', ['packages', i, 'transport', 'headers'], problems),
  );
  const remoteHeaders = remotes.map((remote, i) => declarations(remote.headers, 'header', ['remotes', i, 'headers'], problems));

  const choice = choose(doc, context, problems);
  if (!choice) return { problems };

  const manifest: PluginManifest = {
    file: FILE,
    name: doc.name,
    version: doc.version,
    description: doc.description,
    env: [],
    packageIndex: choice.kind === 'package' ? choice.index : -1,
  };

  if (choice.kind === 'remote') {
    const remote = remotes[choice.index]!;
    manifest.remote = { type: remote.type, url: remote.url, headers: remoteHeaders[choice.index]! };
  } else {
    const pkg = packages[choice.index]!;
    manifest.env = packageEnv[choice.index]!;
    if (pkg.transport.type === 'stdio') {
      const launch = deriveLaunch(pkg, choice.index, context, problems);
      if (launch) manifest.launch = launch;
    } else {
      manifest.remote = { type: pkg.transport.type, url: pkg.transport.url, headers: packageHeaders[choice.index]! };
    }
  }

  return problems.length > 0 ? { problems } : { manifest, problems };
}

function choose(doc: ServerJsonDocument, context: ManifestMappingContext, problems: ManifestProblem[]): Choice | undefined {
  const packages = doc.packages ?? [];
  if (context.packageIndex !== undefined) {
    const problem = checkPackageIndex(FILE, context.packageIndex, packages.length);
    if (problem) {
      problems.push(problem);
      return undefined;
    }
    return { kind: 'package', index: context.packageIndex };
  }
  const stdio = packages.findIndex((pkg) => pkg.transport.type === 'stdio');
  if (stdio >= 0) return { kind: 'package', index: stdio };
  if ((doc.remotes ?? []).length > 0) return { kind: 'remote', index: 0 };
  if (packages.length > 0) return { kind: 'package', index: 0 };
  problems.push({ path: FILE, message: 'declares neither packages nor remotes: there is nothing to launch or connect to' });
  return undefined;
}

function declarations(
  items: ServerJsonKeyValueInput[] | undefined,
  kind: 'environment variable' | 'header',
  base: JsonPathSegment[],
  problems: ManifestProblem[],
): VariableDeclaration[] {
  const result = collectDeclarations(items ?? [], {
    kind,
    caseInsensitive: kind === 'header',
    at: (index, field) => (field === undefined ? at(...base, index) : at(...base, index, field)),
  });
  problems.push(...result.problems);
  return result.declarations;
}

/**
 * The command line of a stdio package, chosen by `runtimeHint` or else by registry.
 * Undefined when nothing runnable can be derived (e.g. an mcpb download URL without a hint).
 */
function deriveLaunch(
  pkg: ServerJsonPackage,
  index: number,
  context: ManifestMappingContext,
  problems: ManifestProblem[],
): ManifestLaunch | undefined {
  const runtimeArgs = renderArguments(pkg.runtimeArguments, ['packages', index, 'runtimeArguments'], problems);
  const packageArgs = renderArguments(pkg.packageArguments, ['packages', index, 'packageArguments'], problems);
  const { identifier, version } = pkg;
  const runtime = pkg.runtimeHint ?? DEFAULT_RUNTIME[pkg.registryType];

  switch (runtime) {
    case 'npx':
    case 'uvx':
      return { command: runtime, args: unattended(runtime, [...runtimeArgs, version ? `${identifier}@${version}` : identifier, ...packageArgs]) };
    case 'docker':
      return { command: 'docker', args: ['run', '-i', '--rm', ...runtimeArgs, dockerImage(identifier, version), ...packageArgs] };
    case undefined:
      // No runtime: the identifier is the executable itself, unless it is a download URL.
      if (isUrlLike(identifier)) return undefined;
      return {
        command: resolveInPluginDir(context.pluginDir, identifier, context.exists),
        args: [...runtimeArgs, ...packageArgs],
      };
    default:
      // node, python, deno, bun, dnx, ...: the identifier is what the runtime runs, often a script in the plugin.
      return {
        command: runtime,
        args: [...runtimeArgs, resolveInPluginDir(context.pluginDir, identifier, context.exists), ...packageArgs],
      };
  }
}

/** Appends `:version` unless the image reference already carries a tag or a digest. */
function dockerImage(identifier: string, version: string | undefined): string {
  if (!version) return identifier;
  const lastSegment = identifier.slice(identifier.lastIndexOf('/') + 1);
  return identifier.includes('@') || lastSegment.includes(':') ? identifier : `${identifier}:${version}`;
}

/**
 * Positional arguments contribute their value; named ones their flag and, when set, a value.
 * `{name}` placeholders in values are left verbatim: substituting `variables` is not done here.
 */
function renderArguments(
  args: ServerJsonArgument[] | undefined,
  base: JsonPathSegment[],
  problems: ManifestProblem[],
): string[] {
  const rendered: string[] = [];
  (args ?? []).forEach((arg, i) => {
    const value = arg.value ?? arg.default;
    if (arg.type === 'named') {
      rendered.push(arg.name);
      if (value !== undefined) rendered.push(value);
    } else if (value !== undefined) {
      rendered.push(value);
    } else if (arg.isRequired) {
      const label = arg.valueHint === undefined ? '' : ` '${truncate(arg.valueHint)}'`;
      problems.push({
        path: at(...base, i),
        message: `positional argument${label} needs a value to launch the package: give "value" or "default"`,
      });
    }
  });
  return rendered;
}

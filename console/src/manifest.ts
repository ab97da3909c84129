import type { Source } from './types.js';

/**
 * What an uploaded server.json (MCP registry) or plugin.json says about launching a server: the
 * form is filled from it, and Toolplane's dry run remains the judge. Secret variables become
 * secret pickers; values are never taken from the file for them.
 */
export interface Declared {
  name: string;
  secret: boolean;
  required: boolean;
  value?: string;
}

export interface Prefill {
  transport?: Source['transport'];
  command?: string;
  args?: string[];
  url?: string;
  env: Declared[];
  headers: Declared[];
  description?: string;
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter((item): item is Json => item !== null && typeof item === 'object') : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function argumentsOf(value: unknown): string[] {
  return list(value).flatMap((argument) => {
    const given = text(argument.value) ?? text(argument.default) ?? (argument.valueHint ? `<${String(argument.valueHint)}>` : undefined);
    if (argument.type === 'named') return [String(argument.name), ...(given ? [given] : [])];
    return given ? [given] : [];
  });
}

function declarations(value: unknown, secretKey: string, requiredKey: string): Declared[] {
  return list(value)
    .filter((variable) => text(variable.name))
    .map((variable) => ({
      name: String(variable.name),
      secret: variable[secretKey] === true,
      required: variable[requiredKey] === true,
      ...(variable[secretKey] !== true && text(variable.default ?? variable.value) ? { value: String(variable.default ?? variable.value) } : {}),
    }));
}

export function readManifest(document: unknown): Prefill {
  if (!document || typeof document !== 'object') throw new Error('The file is not a JSON object.');
  const manifest = document as Json;
  const packages = list(manifest.packages);
  const first = packages[0];
  const description = text(manifest.description);
  // plugin.json: a command line and environment_variables with required/secret.
  if (first && Array.isArray(first.command)) {
    const [command, ...args] = first.command.map(String);
    return { transport: 'stdio', command, args, env: declarations(first.environment_variables, 'secret', 'required'), headers: [], description };
  }
  // server.json: the first package's runtime and arguments, or the first remote.
  if (first) {
    const runtime = text(first.runtimeHint);
    const identifier = String(first.identifier ?? '');
    const version = text(first.version);
    const target = runtime === 'npx' && version ? `${identifier}@${version}` : identifier;
    return {
      transport: 'stdio',
      command: runtime ?? identifier,
      args: [...argumentsOf(first.runtimeArguments), ...(runtime ? [target] : []), ...argumentsOf(first.packageArguments)],
      env: declarations(first.environmentVariables, 'isSecret', 'isRequired'),
      headers: [],
      description,
    };
  }
  const remote = list(manifest.remotes)[0];
  if (remote) {
    return {
      transport: remote.type === 'sse' ? 'sse' : 'streamable-http',
      url: text(remote.url),
      env: [],
      headers: declarations(remote.headers, 'isSecret', 'isRequired'),
      description,
    };
  }
  throw new Error('The manifest has no package or remote to register.');
}

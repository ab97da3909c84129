import type { SourceProps } from '../domain/source.js';
import type { ConnectionInput } from './source-spec-checker.js';
import type { SourceChangesInput } from './source-spec.js';

/** The connection as it will be: stored settings overlaid with the changes (null clears). */
export function mergeConnection(current: Readonly<SourceProps>, changes: SourceChangesInput): ConnectionInput {
  const pick = <K extends keyof SourceChangesInput & keyof SourceProps>(key: K) =>
    changes[key] !== undefined ? changes[key] : current[key];
  const newPluginDir = changes.pluginDir !== undefined && changes.pluginDir !== current.pluginDir;
  // A command the manifest supplied, or a new plugin directory, means: derive it (again).
  const derive = changes.command === undefined && (current.commandFromManifest || newPluginDir);
  const cwd = changes.cwd !== undefined ? changes.cwd : newPluginDir && current.cwd === current.pluginDir ? null : current.cwd;
  // Remote sources store a lifecycle and a sandbox they do not use; the check refuses them as given.
  const isStdio = current.transport === 'stdio';
  return {
    transport: current.transport,
    lifecycle: isStdio ? (pick('lifecycle') ?? undefined) : changes.lifecycle,
    pluginDir: pick('pluginDir'),
    // The package chosen at registration is read again, unless another is chosen or the directory changed.
    packageIndex: changes.packageIndex ?? (newPluginDir ? undefined : current.manifest?.packageIndex),
    command: derive ? null : pick('command'),
    args: derive ? (changes.args ?? null) : pick('args'),
    cwd: current.commandFromManifest && cwd === current.pluginDir && changes.cwd === undefined ? null : cwd,
    // Given sandbox fields replace the stored ones; fields left out are kept.
    sandbox: !isStdio ? changes.sandbox : changes.sandbox ? { ...current.sandbox, ...definedOnly(changes.sandbox) } : current.sandbox,
    url: pick('url'),
    env: changes.env ?? current.env,
    headers: changes.headers ?? current.headers,
    upstreamAuth: changes.upstreamAuth !== undefined ? changes.upstreamAuth : current.upstreamAuth,
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

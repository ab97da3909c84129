import { Inject, Injectable } from '@nestjs/common';
import { isAbsolute } from 'node:path';
import { ProblemDetail, ProblemList } from '../../../shared/domain-error.js';
import { SecretRepository } from '../../secrets/domain/secret.js';
import type { PluginManifest } from '../domain/manifest/plugin-manifest.js';
import { CommandLocator, HostEnvironment, ManifestLoader, PluginAccess, RemoteHostCheck } from '../domain/ports.js';
import type { ManifestSummary, SourceProps } from '../domain/source.js';
import type { SandboxSettings } from '../domain/source-settings.js';
import type { SourceSpecInput } from './source-spec.js';
import { checkVariables } from '../domain/variable-policy.js';
import { parseTemplate } from '../domain/value-template.js';
import { parseRemoteUrl } from '../domain/remote-url.js';
import { checkUpstreamAuth, type UpstreamAuth } from '../domain/upstream-auth.js';
import { isLoopback } from '../../../config/app-config.js';

/** The connection part of a source after every check: what gets stored. */
export type CheckedConnection = Pick<
  SourceProps,
  'transport' | 'lifecycle' | 'pluginDir' | 'manifest' | 'command' | 'commandFromManifest' | 'args' | 'cwd' | 'sandbox' | 'url' | 'env' | 'headers' | 'upstreamAuth'
>;

/** The connection part of a registration (or of a source with its changes applied). */
export type ConnectionInput = Pick<
  SourceSpecInput,
  'transport' | 'lifecycle' | 'pluginDir' | 'packageIndex' | 'command' | 'args' | 'cwd' | 'sandbox' | 'url' | 'env' | 'headers' | 'upstreamAuth'
>;

export interface ConnectionCheck {
  problems: ProblemDetail[];
  connection?: CheckedConnection;
  notes: string[];
}

/**
 * Checks how a source is reached, as a whole, reporting every problem at once: transport
 * fields, manifest, command, cwd, URL, env and headers against the manifest's declarations,
 * and every `${secret:…}` / `${env:…}` reference. `skip` names paths whose shape already failed.
 */
@Injectable()
export class SourceSpecChecker {
  constructor(
    @Inject(ManifestLoader) private readonly manifests: ManifestLoader,
    @Inject(CommandLocator) private readonly commands: CommandLocator,
    @Inject(SecretRepository) private readonly secrets: SecretRepository,
    @Inject(HostEnvironment) private readonly host: HostEnvironment,
    @Inject(PluginAccess) private readonly access: PluginAccess,
    @Inject(RemoteHostCheck) private readonly remoteHosts: RemoteHostCheck,
  ) {}

  async check(input: ConnectionInput, skip: ProblemList = new ProblemList()): Promise<ConnectionCheck> {
    const problems = new ProblemList();
    const notes: string[] = [];
    // Without a valid transport (or any object at all) nothing else can be judged.
    if (skip.has('body') || skip.has('transport')) return { problems: [], notes };
    const isStdio = input.transport === 'stdio';
    const env = input.env ?? {};
    const headers = input.headers ?? {};

    if (isStdio) {
      for (const field of ['url'] as const) {
        if (input[field] != null) problems.add(field, 'applies only to streamable-http and sse sources');
      }
      if (Object.keys(headers).length > 0) problems.add('headers', 'apply only to streamable-http and sse sources');
    } else {
      for (const field of ['pluginDir', 'command', 'cwd', 'lifecycle', 'sandbox'] as const) {
        if (input[field] != null) problems.add(field, 'applies only to stdio sources');
      }
      if (input.args != null && input.args.length > 0) problems.add('args', 'applies only to stdio sources');
      if (Object.keys(env).length > 0) problems.add('env', 'applies only to stdio sources (remote sources take headers)');
    }

    let manifest: PluginManifest | undefined;
    if (isStdio && input.pluginDir != null && !skip.has('pluginDir')) {
      manifest = await this.readManifest(input.pluginDir, input.packageIndex, problems, notes);
    } else if (input.packageIndex !== undefined && input.pluginDir == null) {
      problems.add('packageIndex', 'applies only with pluginDir');
    }

    const connection: CheckedConnection = {
      transport: input.transport,
      lifecycle: isStdio ? (input.lifecycle ?? 'transient') : 'transient',
      pluginDir: isStdio ? (input.pluginDir ?? null) : null,
      manifest: manifest ? summarize(manifest, input.packageIndex) : null,
      command: null,
      commandFromManifest: false,
      args: [],
      cwd: null,
      sandbox: isStdio ? normalizeSandbox(input.sandbox) : {},
      url: null,
      env: isStdio ? env : {},
      headers: isStdio ? {} : headers,
      upstreamAuth: null,
    };

    if (isStdio) {
      await this.checkLaunch(input, manifest, connection, problems, skip);
    } else if (!skip.has('url')) {
      connection.url = this.checkUrl(input.url, problems);
      if (connection.url) {
        const denied = await this.remoteHosts.problem(new URL(connection.url));
        if (denied) problems.add('url', denied);
      }
    }

    if (isStdio && !skip.has('env')) {
      problems.addAll(checkVariables('env', env, manifest?.env ?? [], manifest?.file, this.host).problems);
      await this.checkReferences('env', env, problems);
    }
    if (!isStdio && !skip.has('headers')) {
      problems.addAll(checkVariables('headers', headers, [], undefined, this.host).problems);
      await this.checkReferences('headers', headers, problems);
    }

    if (!skip.has('upstreamAuth')) connection.upstreamAuth = await this.checkUpstreamAuth(input, connection, problems);

    return problems.isEmpty ? { problems: [], connection, notes } : { problems: [...problems.all], notes };
  }

  /** upstreamAuth against the transport and the templates; stored as null when it is shared. */
  private async checkUpstreamAuth(input: ConnectionInput, connection: CheckedConnection, problems: ProblemList): Promise<UpstreamAuth | null> {
    const checked = checkUpstreamAuth(input.upstreamAuth, input.transport, { env: connection.env, headers: connection.headers }, (url) => isLoopback(url.hostname));
    problems.addAll(checked.problems);
    const existing = await this.secrets.existing(checked.secretReferences.map((ref) => ref.name));
    for (const ref of checked.secretReferences) {
      if (!existing.has(ref.name)) problems.add(ref.path, `refers to secret "${ref.name}", which does not exist (PUT /api/v1/secrets/${ref.name} first)`);
    }
    return checked.auth && checked.auth.mode !== 'shared' ? checked.auth : null;
  }

  private async readManifest(pluginDir: string, packageIndex: number | undefined, problems: ProblemList, notes: string[]) {
    if (!isAbsolute(pluginDir)) {
      problems.add('pluginDir', 'must be an absolute path');
      return undefined;
    }
    const result = await this.manifests.read(pluginDir, { packageIndex });
    notes.push(...result.notes);
    problems.addAll(result.problems);
    if (result.manifest?.remote && !result.manifest.launch) {
      problems.add('pluginDir', `${result.manifest.file} describes a remote server (${result.manifest.remote.url}); register it with transport ${result.manifest.remote.type} and url instead`);
      return undefined;
    }
    return result.manifest;
  }

  private async checkLaunch(
    input: ConnectionInput,
    manifest: PluginManifest | undefined,
    connection: CheckedConnection,
    problems: ProblemList,
    skip: ProblemList,
  ): Promise<void> {
    const explicit = input.command != null;
    if (!explicit && input.pluginDir == null && !skip.has('command') && !skip.has('pluginDir')) {
      problems.add('command', 'a stdio source needs a command, or a pluginDir whose manifest describes one');
      return;
    }
    if (!explicit && input.args != null && input.args.length > 0) {
      problems.add('args', 'given without command: an explicit command and args override the manifest together');
    }
    const command = explicit ? input.command! : manifest?.launch?.command;
    connection.args = explicit ? (input.args ?? []) : (manifest?.launch?.args ?? []);
    connection.commandFromManifest = !explicit;
    let commandPath: string | undefined;
    if (command !== undefined && !skip.has('command')) {
      const found = await this.commands.locate(command);
      if (found.found) {
        connection.command = command;
        commandPath = found.path;
      } else problems.add('command', `${found.reason}${explicit ? '' : ` (derived from ${manifest?.file})`}`);
    }
    if (input.cwd != null && !skip.has('cwd')) {
      if (!isAbsolute(input.cwd)) problems.add('cwd', 'must be an absolute path');
      else if (!(await this.commands.isDirectory(input.cwd))) problems.add('cwd', 'is not an existing directory');
      else connection.cwd = input.cwd;
    } else if (input.pluginDir != null && manifest) {
      connection.cwd = input.pluginDir;
    }
    // A plugin that the sandbox user cannot reach would only fail at its first start, less clearly.
    const reach = await this.access.problems({
      command: commandPath,
      pluginDir: manifest ? (input.pluginDir ?? undefined) : undefined,
      cwd: connection.cwd ?? undefined,
      args: connection.args.filter((arg) => typeof arg === 'string' && isAbsolute(arg)),
    });
    for (const [field, message] of reach) problems.add(field, message);
  }

  private checkUrl(url: string | null | undefined, problems: ProblemList): string | null {
    if (url == null || url === '') {
      problems.add('url', 'is required for streamable-http and sse sources');
      return null;
    }
    const parsed = parseRemoteUrl(url);
    if ('problem' in parsed) {
      problems.add('url', parsed.credentials ? `${parsed.problem}; use headers with a \${secret:NAME} reference` : parsed.problem);
      return null;
    }
    return parsed.url.toString();
  }

  private async checkReferences(field: 'env' | 'headers', values: Record<string, string>, problems: ProblemList) {
    const wanted = new Map<string, string[]>();
    for (const [name, value] of Object.entries(values)) {
      for (const ref of parseTemplate(value).references) {
        if (ref.kind === 'secret') wanted.set(ref.name, [...(wanted.get(ref.name) ?? []), `${field}.${name}`]);
        // A caller's own value: whether the source may refer to one is upstreamAuth's to say.
        else if (ref.kind === 'user-secret') continue;
        // A refused variable is reported by checkVariables, set or not.
        else if (this.host.refusal(ref.name) === undefined && this.host.get(ref.name) === undefined) {
          problems.add(`${field}.${name}`, `refers to \${env:${ref.name}}, which is not set in Toolplane's environment`);
        }
      }
    }
    const existing = await this.secrets.existing([...wanted.keys()]);
    for (const [secret, paths] of wanted) {
      if (!existing.has(secret)) {
        for (const path of paths) problems.add(path, `refers to secret "${secret}", which does not exist (PUT /api/v1/secrets/${secret} first)`);
      }
    }
  }
}

/** Stored with every field present, each path once, so views and fingerprints are stable. */
function normalizeSandbox(sandbox: SandboxSettings | undefined): SandboxSettings {
  const unique = (paths: string[] | undefined) => [...new Set(paths ?? [])];
  return { network: sandbox?.network ?? true, readOnlyPaths: unique(sandbox?.readOnlyPaths), writablePaths: unique(sandbox?.writablePaths) };
}

function summarize(manifest: PluginManifest, packageIndex: number | undefined): ManifestSummary {
  return {
    file: manifest.file,
    ...(packageIndex === undefined ? {} : { packageIndex }),
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    env: manifest.env,
    headers: manifest.remote?.headers ?? [],
  };
}

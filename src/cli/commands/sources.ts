import type { Command } from 'commander';
import type { Source, SourceChanges as Changes, SourceRegistration as Registration } from '../../api-types/rest-api.js';
import type { QueryFor } from '../api-client.js';
import { colorState } from '../colors.js';
import { inContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { keyValue, nonNegativeInt, parseJsonObjectOption, positiveInt, withPageOptions } from '../input.js';
import { countOf, failureSummary, formatDuration, orDash, shortTime, type Output } from '../output.js';

export function registerSourceCommands(program: Command): void {
  const sources = program.command('sources').description('Register, inspect, refresh and remove sources (MCP servers)');

  withPageOptions(
    sources
      .command('ls')
      .description('List sources with their health and tool count')
      .option('--health <health>', 'only sources in this health: unknown, healthy, degraded, unhealthy')
      .option('--transport <transport>', 'only this transport: stdio, streamable-http, sse')
      .option('-q, --query <text>', 'text in the name or description'),
    'sources per page (1-200)',
  ).action(inContext(async ({ api, out }, options: Pick<QueryFor<'/api/v1/sources', 'get'>, 'health' | 'transport' | 'limit' | 'cursor'> & { query?: string }) => {
    const page = await api.getJson('/api/v1/sources', {
      query: {
        health: options.health,
        transport: options.transport,
        q: options.query,
        limit: options.limit,
        cursor: options.cursor,
      },
    });
    out.page(
      page,
      [
        { header: 'NAME', value: (s) => s.name },
        { header: 'TRANSPORT', value: (s) => s.transport },
        { header: 'HEALTH', value: (s) => (s.enabled ? s.health : 'disabled'), style: (t) => colorState(out.c, t) },
        { header: 'TOOLS', value: (s) => String(s.toolCount), align: 'right' },
        { header: 'PINNING', value: (s) => s.pinning },
        { header: 'LAST REFRESH', value: (s) => shortTime(s.lastRefreshAt) },
        { header: 'LAST ERROR', value: (s) => orDash(s.lastError && failureSummary(s.lastError)), maxWidth: 60 },
      ],
      'no sources (register one with "toolplane sources add")',
    );
  }));

  sources
    .command('get')
    .description('Show one source: settings, health, last error, protocol')
    .argument('<source>', 'source name or id')
    .action(inContext(async ({ api, out }, name: string) => {
      out.result(await api.getJson('/api/v1/sources/{idOrName}', { params: { idOrName: name } }), (source) => printSource(out, source));
    }));

  settingOptions(
    sources
      .command('add')
      .description('Register a source and wait for its first discovery')
      .argument('<name>', 'the source name (lowercase letters, digits and dashes)')
      .argument('[command...]', 'stdio: the command and its arguments, after "--"')
      .option('--transport <transport>', 'stdio, streamable-http or sse (default: stdio with a command or plugin dir, streamable-http with --mcp-url)'),
    'an environment variable for the plugin; values may be ${secret:NAME} (repeatable)',
  )
    .option('--disabled', 'register it disabled')
    .option('-f, --file <file>', 'the registration as JSON (the POST /api/v1/sources body; "-" for stdin); other options override its fields')
    .option('--no-wait', 'answer at once and discover in the background')
    .addHelpText(
      'after',
      `
Examples:
  $ toolplane sources add everything -- npx -y @modelcontextprotocol/server-everything stdio
  $ toolplane sources add github --plugin-dir /opt/plugins/github -e 'GITHUB_TOKEN=\${secret:GITHUB_TOKEN}'
  $ toolplane sources add docs --mcp-url https://mcp.example.com/mcp -H 'Authorization=Bearer \${secret:DOCS_TOKEN}'`,
    )
    .action(inContext(async ({ api, out }, name: string, commandLine: string[], options: AddOptions) => {
      const body = registration(name, commandLine, options);
      const response = await api.request('POST', '/api/v1/sources', { json: body, query: { wait: options.wait === false ? false : undefined }, timeoutMs: 120_000 });
      const source = response.body;
      if (out.json) out.printJson(source);
      else {
        out.note(out.ce.green(`registered ${source.name}`));
        printSource(out, source);
      }
      const unfinished = options.wait === false ? undefined : firstDiscoveryProblem(source);
      if (unfinished) throw new CliError(unfinished, EXIT.failed);
    }));

  settingOptions(
    sources
      .command('update')
      .description('Change a source\'s settings; those not given stay as they are')
      .argument('<source>', 'source name or id')
      .argument('[command...]', 'stdio: a new command and its arguments, after "--"'),
    'an environment variable for the plugin (repeatable); given, they replace all of the source\'s variables',
  )
    .option('--no-read-only', 'offer every tool again, not only those annotated readOnlyHint')
    .option('--no-rate-limit', 'no limit on the calls per minute')
    .option('-f, --file <file>', 'the changes as JSON (the PATCH /api/v1/sources/{name} body; "-" for stdin); other options override its fields')
    .option('--if-version <n>', 'change it only if its version is still this one (see "toolplane sources get"), else fail with STALE_VERSION', positiveInt('--if-version'))
    .option('--no-wait', 'answer at once and discover in the background when the change calls for it')
    .addHelpText(
      'after',
      `
Variables (-e) and headers (-H) cannot be read back, so those given replace the source's whole set.
Secrets are never given here: store them with "toolplane secrets put NAME" and refer to them as \${secret:NAME}.

Examples:
  $ toolplane sources update github --timeout-ms 30000 --refresh-interval 600
  $ toolplane sources update github -e 'GITHUB_TOKEN=\${secret:GITHUB_TOKEN_2}'
  $ toolplane sources update github --no-read-only`,
    )
    .action(inContext(async ({ api, out }, name: string, commandLine: string[], options: UpdateOptions) => {
      const body = changes(commandLine, options);
      const { body: source } = await api.request('PATCH', '/api/v1/sources/{idOrName}', {
        params: { idOrName: name },
        json: body,
        query: { wait: options.wait === false ? false : undefined },
        timeoutMs: 120_000,
      });
      if (out.json) return out.printJson(source);
      out.note(out.ce.green(`updated ${source.name}`));
      printSource(out, source);
    }));

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    sources
      .command(verb)
      .description(enabled ? 'Put a disabled source back into use and discover its tools' : 'Take a source out of use: its tools leave the catalog, its processes stop; its settings and history stay')
      .argument('<source>', 'source name or id')
      .action(inContext(async ({ api, out }, name: string) => {
        const { body: source } = await api.request('PATCH', '/api/v1/sources/{idOrName}', { params: { idOrName: name }, json: { enabled }, timeoutMs: 120_000 });
        if (out.json) return out.printJson(source);
        out.note(`${enabled ? 'enabled' : 'disabled'} ${source.name}`);
      }));
  }

  sources
    .command('refresh')
    .description('Discover the source\'s tools again now')
    .argument('<source>', 'source name or id')
    .action(inContext(async ({ api, out }, name: string) => {
      const response = await api.request('POST', '/api/v1/sources/{idOrName}/refresh', { params: { idOrName: name }, timeoutMs: 120_000 });
      if (out.json) return out.printJson(response.body);
      const changes = response.body;
      out.line((['added', 'changed', 'deprecated', 'restored', 'unchanged'] as const).map((k) => `${k} ${changes[k] ?? 0}`).join(', '));
    }));

  sources
    .command('rm')
    .description('Remove a source: its processes stop, its tools leave the catalog, its history stays')
    .argument('<source>', 'source name or id')
    .action(inContext(async ({ api, out }, name: string) => {
      await api.request('DELETE', '/api/v1/sources/{idOrName}', { params: { idOrName: name } });
      if (out.json) return out.printJson({ removed: name });
      out.note(`removed ${name}`);
    }));
}

/** The settings an operator gives on "add" and changes on "update", as the same flags. */
function settingOptions(command: Command, envHelp: string): Command {
  return command
    .option('--mcp-url <url>', 'the URL of a remote MCP server')
    .option('--plugin-dir <dir>', 'stdio: a directory holding server.json or plugin.json')
    .option('--cwd <dir>', 'stdio: the working directory of the command')
    .option('--lifecycle <lifecycle>', 'stdio: transient (a process per call) or singleton (one shared process)')
    .option('-e, --env <NAME=VALUE>', envHelp, keyValue('--env'))
    .option('-H, --header <NAME=VALUE>', 'an HTTP header for a remote source; values may be ${secret:NAME} (repeatable)', keyValue('--header'))
    .option('--description <text>', 'what the source is for')
    .option('--read-only', 'offer only the tools annotated readOnlyHint')
    .option('--timeout-ms <ms>', 'default timeout of a call', positiveInt('--timeout-ms'))
    .option('--max-concurrency <n>', 'calls at once to the source', positiveInt('--max-concurrency'))
    .option('--rate-limit <n>', 'calls per minute to each of its tools, from all callers together', positiveInt('--rate-limit'))
    .option('--refresh-interval <seconds>', 'seconds between discoveries of its tools (0: none)', nonNegativeInt('--refresh-interval'))
    .option('--pinning <mode>', 'new and changed tool definitions: auto (held only when the scan finds a high risk), review (every one waits for a reviewer) or off');
}

interface SettingOptions {
  mcpUrl?: string;
  pluginDir?: string;
  cwd?: string;
  lifecycle?: Source['lifecycle'];
  env?: Record<string, string>;
  header?: Record<string, string>;
  description?: string;
  readOnly?: boolean;
  timeoutMs?: number;
  maxConcurrency?: number;
  /** false: --no-rate-limit. */
  rateLimit?: number | false;
  refreshInterval?: number;
  pinning?: Source['pinning'];
  file?: string;
  wait?: boolean;
}

interface AddOptions extends SettingOptions {
  transport?: Source['transport'];
  disabled?: boolean;
}

interface UpdateOptions extends SettingOptions {
  ifVersion?: number;
}

/** The fields the flags (and a command after "--") set, over those of --file. */
function settingsBody(commandLine: string[], options: SettingOptions): Partial<Registration & Changes> {
  // What --file holds is sent as it is: the server checks every field of it.
  const body: Partial<Registration & Changes> = options.file ? parseJsonObjectOption(`@${options.file}`, '--file') : {};
  if (commandLine.length > 0) {
    if (options.mcpUrl) throw new UsageError('give either a command (after "--") or --mcp-url, not both');
    body.command = commandLine[0];
    body.args = commandLine.slice(1);
  }
  if (options.mcpUrl) body.url = options.mcpUrl;
  if (options.pluginDir) body.pluginDir = options.pluginDir;
  if (options.cwd) body.cwd = options.cwd;
  if (options.lifecycle) body.lifecycle = options.lifecycle;
  if (options.env) body.env = { ...body.env, ...options.env };
  if (options.header) body.headers = { ...body.headers, ...options.header };
  if (options.description !== undefined) body.description = options.description;
  if (options.readOnly !== undefined) body.readOnly = options.readOnly;
  if (options.timeoutMs !== undefined) body.timeoutMs = options.timeoutMs;
  if (options.maxConcurrency !== undefined) body.maxConcurrency = options.maxConcurrency;
  if (options.rateLimit !== undefined) body.rateLimitPerMinute = options.rateLimit === false ? null : options.rateLimit;
  if (options.refreshInterval !== undefined) body.refreshIntervalSeconds = options.refreshInterval;
  if (options.pinning !== undefined) body.pinning = options.pinning;
  return body;
}

function registration(name: string, commandLine: string[], options: AddOptions): Registration {
  const body = settingsBody(commandLine, options);
  if (options.disabled) body.enabled = false;
  const transport = options.transport ?? body.transport ?? (body.url ? 'streamable-http' : 'stdio');
  if (!body.url && !body.command && !body.pluginDir) {
    throw new UsageError('say how to reach the source: a command after "--" (stdio), --plugin-dir, or --mcp-url (see toolplane sources add --help)');
  }
  return { ...body, name, transport };
}

function changes(commandLine: string[], options: UpdateOptions): Changes {
  const body = settingsBody(commandLine, options);
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give the settings to change (see toolplane sources update --help)');
  if (options.ifVersion !== undefined) body.version = options.ifVersion;
  return body;
}

/** Why a registration that waited for its first discovery did not end with the source healthy (undefined when it did, or is disabled). */
function firstDiscoveryProblem(s: Source): string | undefined {
  if (!s.enabled || s.health === 'healthy') return undefined;
  if (s.discovery) return `${s.name} is registered, but its first discovery is still running (${s.discovery.progress}); see "toolplane sources get ${s.name}"`;
  return `${s.name} is registered, but its first discovery failed: ${s.lastError ?? `its health is ${s.health}`}`;
}

function printSource(out: Output, s: Source): void {
  const launch = s.transport === 'stdio' ? [s.command, ...(s.args ?? [])].filter(Boolean).join(' ') || s.pluginDir : s.url;
  out.fields([
    ['name', s.name],
    ['id', s.id],
    ['description', s.description],
    ['transport', s.transport + (s.transport === 'stdio' ? ` (${s.lifecycle})` : '')],
    [s.transport === 'stdio' ? 'command' : 'url', launch],
    ['enabled', s.enabled],
    ['health', colorState(out.c, s.health)],
    ['last error', s.lastError],
    ['failures in a row', s.consecutiveFailures],
    ['tools', s.toolCount],
    ['read-only', s.readOnly],
    ['pinning', s.pinning],
    ['timeout', formatDuration(s.timeoutMs)],
    ['max concurrency', s.maxConcurrency],
    ['rate limit', s.rateLimitPerMinute === null ? 'none' : `${s.rateLimitPerMinute} calls a minute to each tool`],
    ['refresh every', s.refreshIntervalSeconds ? countOf(s.refreshIntervalSeconds, 'second') : 'never'],
    ['protocol', s.protocol ? [s.protocol.era, s.protocol.version].filter(Boolean).join(' ') : null],
    ['server', s.serverInfo ? [s.serverInfo.name, s.serverInfo.version].filter(Boolean).join(' ') : null],
    ...(s.discovery ? [['discovering', s.discovery.progress] satisfies [string, string]] : []),
    ['last refresh', shortTime(s.lastRefreshAt)],
    ['last success', shortTime(s.lastSuccessAt)],
    ['version', s.version],
  ]);
  for (const skipped of s.skippedTools ?? []) out.note(out.ce.yellow(`skipped tool ${skipped.name}: ${skipped.reason}`));
}

import type { Command } from 'commander';
import { colorState } from '../colors.js';
import { contextOf } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { keyValue, parseJsonObjectOption, positiveInt } from '../input.js';
import { orDash, shortTime, type Output } from '../output.js';

interface Source {
  id: string;
  name: string;
  description: string | null;
  transport: string;
  command: string | null;
  args: string[];
  url: string | null;
  pluginDir: string | null;
  enabled: boolean;
  health: string;
  lastError: string | null;
  lastRefreshAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  toolCount: number;
  readOnly: boolean;
  lifecycle: string;
  protocol: { era?: string; version?: string } | null;
  serverInfo: { name?: string; version?: string } | null;
  skippedTools?: { name: string; reason: string }[];
  /** A discovery still running in the server that answered. */
  discovery?: { since: string; progress: string } | null;
  version: number;
}

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function registerSourceCommands(program: Command): void {
  const sources = program.command('sources').description('Register, inspect, refresh and remove sources (MCP servers)');

  sources
    .command('ls')
    .description('List sources with their health and tool count')
    .option('--health <health>', 'only sources in this health: unknown, healthy, degraded, unhealthy')
    .option('--transport <transport>', 'only this transport: stdio, streamable-http, sse')
    .option('-q, --query <text>', 'text in the name or description')
    .option('--limit <n>', 'sources per page (1-200)', positiveInt('--limit'))
    .option('--cursor <cursor>', 'the page after this cursor (printed under a full page)')
    .action(async (options: { health?: string; transport?: string; query?: string; limit?: number; cursor?: string }, command: Command) => {
      const { api, out } = contextOf(command);
      const page = await api.getJson<Page<Source>>('/api/v1/sources', {
        health: options.health,
        transport: options.transport,
        q: options.query,
        limit: options.limit,
        cursor: options.cursor,
      });
      if (out.json) return out.printJson(page);
      out.table(
        page.items,
        [
          { header: 'NAME', value: (s) => s.name },
          { header: 'TRANSPORT', value: (s) => s.transport },
          { header: 'HEALTH', value: (s) => (s.enabled ? s.health : 'disabled'), style: (t) => colorState(out.c, t) },
          { header: 'TOOLS', value: (s) => String(s.toolCount), align: 'right' },
          { header: 'LAST REFRESH', value: (s) => shortTime(s.lastRefreshAt) },
          { header: 'LAST ERROR', value: (s) => orDash(s.lastError), maxWidth: 60 },
        ],
        'no sources (register one with "toolplane sources add")',
      );
      out.moreHint(page.nextCursor);
    });

  sources
    .command('get')
    .description('Show one source: settings, health, last error, protocol')
    .argument('<source>', 'source name or id')
    .action(async (name: string, _options: unknown, command: Command) => {
      const { api, out } = contextOf(command);
      const source = await api.getJson<Source>(`/api/v1/sources/${encodeURIComponent(name)}`);
      if (out.json) return out.printJson(source);
      printSource(out, source);
    });

  sources
    .command('add')
    .description('Register a source and wait for its first discovery')
    .argument('<name>', 'the source name (lowercase letters, digits and dashes)')
    .argument('[command...]', 'stdio: the command and its arguments, after "--"')
    .option('--mcp-url <url>', 'a remote MCP server (streamable HTTP unless --transport sse)')
    .option('--transport <transport>', 'stdio, streamable-http or sse (default: stdio with a command or plugin dir, streamable-http with --mcp-url)')
    .option('--plugin-dir <dir>', 'stdio: a directory holding server.json or plugin.json')
    .option('--cwd <dir>', 'stdio: the working directory of the command')
    .option('--lifecycle <lifecycle>', 'stdio: transient (a process per call) or singleton (one shared process)')
    .option('-e, --env <NAME=VALUE>', 'an environment variable for the plugin; values may be ${secret:NAME} (repeatable)', keyValue('--env'))
    .option('-H, --header <NAME=VALUE>', 'an HTTP header for a remote source (repeatable)', keyValue('--header'))
    .option('--description <text>', 'what the source is for')
    .option('--read-only', 'offer only the tools annotated readOnlyHint')
    .option('--timeout-ms <ms>', 'default timeout of a call', positiveInt('--timeout-ms'))
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
    .action(async (name: string, commandLine: string[], options: AddOptions, command: Command) => {
      const { api, out } = contextOf(command);
      const body = registration(name, commandLine, options);
      const response = await api.request<Source>('POST', '/api/v1/sources', { json: body, query: { wait: options.wait === false ? false : undefined }, timeoutMs: 120_000 });
      const source = response.body;
      if (out.json) out.printJson(source);
      else {
        out.note(out.ce.green(`registered ${source.name}`));
        printSource(out, source);
      }
      const unfinished = options.wait === false ? undefined : firstDiscoveryProblem(source);
      if (unfinished) throw new CliError(unfinished, EXIT.failed);
    });

  sources
    .command('refresh')
    .description('Discover the source\'s tools again now')
    .argument('<source>', 'source name or id')
    .action(async (name: string, _options: unknown, command: Command) => {
      const { api, out } = contextOf(command);
      const response = await api.request<Record<string, number>>('POST', `/api/v1/sources/${encodeURIComponent(name)}/refresh`, { timeoutMs: 120_000 });
      if (out.json) return out.printJson(response.body);
      const changes = response.body;
      out.line(['added', 'changed', 'deprecated', 'restored', 'unchanged'].map((k) => `${k} ${changes[k] ?? 0}`).join(', '));
    });

  sources
    .command('rm')
    .description('Remove a source: its processes stop, its tools leave the catalog, its history stays')
    .argument('<source>', 'source name or id')
    .action(async (name: string, _options: unknown, command: Command) => {
      const { api, out } = contextOf(command);
      await api.request('DELETE', `/api/v1/sources/${encodeURIComponent(name)}`);
      if (out.json) return out.printJson({ removed: name });
      out.note(`removed ${name}`);
    });
}

interface AddOptions {
  mcpUrl?: string;
  transport?: string;
  pluginDir?: string;
  cwd?: string;
  lifecycle?: string;
  env?: Record<string, string>;
  header?: Record<string, string>;
  description?: string;
  readOnly?: boolean;
  timeoutMs?: number;
  disabled?: boolean;
  file?: string;
  wait?: boolean;
}

function registration(name: string, commandLine: string[], options: AddOptions): Record<string, unknown> {
  const body: Record<string, unknown> = options.file ? parseJsonObjectOption(`@${options.file}`, '--file') : {};
  body.name = name;
  if (commandLine.length > 0) {
    if (options.mcpUrl) throw new UsageError('give either a command (after "--") or --mcp-url, not both');
    body.command = commandLine[0];
    body.args = commandLine.slice(1);
  }
  if (options.mcpUrl) body.url = options.mcpUrl;
  if (options.pluginDir) body.pluginDir = options.pluginDir;
  if (options.cwd) body.cwd = options.cwd;
  if (options.lifecycle) body.lifecycle = options.lifecycle;
  if (options.env) body.env = { ...(body.env as object | undefined), ...options.env };
  if (options.header) body.headers = { ...(body.headers as object | undefined), ...options.header };
  if (options.description) body.description = options.description;
  if (options.readOnly) body.readOnly = true;
  if (options.timeoutMs) body.timeoutMs = options.timeoutMs;
  if (options.disabled) body.enabled = false;
  body.transport = options.transport ?? body.transport ?? (body.url ? 'streamable-http' : 'stdio');
  if (!body.url && !body.command && !body.pluginDir) {
    throw new UsageError('say how to reach the source: a command after "--" (stdio), --plugin-dir, or --mcp-url (see toolplane sources add --help)');
  }
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
    ['transport', s.transport + (s.transport === 'stdio' ? ` (${s.lifecycle})` : '')],
    [s.transport === 'stdio' ? 'command' : 'url', launch],
    ['enabled', s.enabled],
    ['health', colorState(out.c, s.health)],
    ['last error', s.lastError],
    ['failures in a row', s.consecutiveFailures],
    ['tools', s.toolCount],
    ['read-only', s.readOnly],
    ['protocol', s.protocol ? [s.protocol.era, s.protocol.version].filter(Boolean).join(' ') : null],
    ['server', s.serverInfo ? [s.serverInfo.name, s.serverInfo.version].filter(Boolean).join(' ') : null],
    ...(s.discovery ? [['discovering', s.discovery.progress] satisfies [string, string]] : []),
    ['last refresh', shortTime(s.lastRefreshAt)],
    ['last success', shortTime(s.lastSuccessAt)],
    ['version', s.version],
  ]);
  for (const skipped of s.skippedTools ?? []) out.note(out.ce.yellow(`skipped tool ${skipped.name}: ${skipped.reason}`));
}

import type { Command } from 'commander';
import type { Tool, ToolPage } from '../../api-types/rest-api.js';
import { colorState } from '../colors.js';
import { inContext, type CliContext } from '../context.js';
import { type PageOptions, withPageOptions } from '../input.js';
import { orDash, type Output } from '../output.js';
import { jsonText } from '../terminal-text.js';

interface ListOptions extends PageOptions {
  source?: string;
  all?: boolean;
  readOnly?: boolean;
}

export function registerToolCommands(program: Command): void {
  const tools = program.command('tools').description('Browse the tool catalog, and enable or disable tools');

  const listOptions = (command: Command) =>
    withPageOptions(
      command
        .option('-s, --source <source>', 'only the tools of this source (name or id)')
        .option('-a, --all', 'also disabled and deprecated tools, and those of disabled sources')
        .option('--read-only', 'only tools annotated readOnlyHint'),
      'tools per page (1-500)',
    );

  listOptions(tools.command('ls').description('List the tools agents may call (with --all, every tool)')).action(inContext((context, options: ListOptions) => listTools(context, options)));

  listOptions(
    tools
      .command('search')
      .description('Full-text search over tool names, titles and descriptions, best matches first')
      .argument('<query...>', 'words to look for'),
  ).action(inContext((context, words: string[], options: ListOptions) => listTools(context, options, words.join(' '))));

  tools
    .command('get')
    .description('Show one tool: description, annotations and input schema')
    .argument('<tool>', 'qualified tool name, e.g. everything__echo')
    .action(inContext(async ({ api, out }, name: string) => {
      out.result(await api.getJson('/api/v1/tools/{qualifiedName}', { params: { qualifiedName: name } }), (tool) => printTool(out, tool));
    }));

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    tools
      .command(verb)
      .description(enabled ? 'Put a disabled tool back into use' : 'Take a tool out of use (kept across refreshes)')
      .argument('<tool>', 'qualified tool name')
      .action(inContext(async ({ api, out }, name: string) => {
        const { body } = await api.request('PATCH', '/api/v1/tools/{qualifiedName}', { params: { qualifiedName: name }, json: { enabled } });
        if (out.json) return out.printJson(body);
        out.note(`${body.qualifiedName} ${enabled ? 'enabled' : 'disabled'}`);
      }));
  }
}

async function listTools({ api, out }: CliContext, options: ListOptions, q?: string): Promise<void> {
  // Without a format, every item is the full view of its tool.
  const page = (await api.getJson('/api/v1/tools', {
    query: {
      q,
      source: options.source,
      readOnly: options.readOnly ? 'true' : undefined,
      status: options.all ? 'all' : undefined,
      enabled: options.all ? 'all' : undefined,
      includeDisabledSources: options.all ? 'true' : undefined,
      limit: options.limit,
      cursor: options.cursor,
    },
  })) as ToolPage;
  out.page(
    page,
    [
      { header: 'TOOL', value: (t) => t.qualifiedName },
      { header: 'SOURCE', value: (t) => t.source.name },
      { header: 'STATE', value: toolState, style: (text) => colorState(out.c, text) },
      { header: 'DESCRIPTION', value: (t) => orDash(t.title ?? t.description), maxWidth: 70 },
    ],
    q ? `no tool matches "${q}"` : 'no tools',
  );
}

function toolState(t: Tool): string {
  if (t.reviewState !== 'approved') return t.reviewState;
  if (t.unusableReason) return 'unusable';
  if (t.status !== 'active') return t.status;
  return t.enabled ? 'enabled' : 'disabled';
}

function printTool(out: Output, t: Tool): void {
  out.fields([
    ['tool', t.qualifiedName],
    ['upstream name', t.name],
    ['source', t.source.name],
    ['state', colorState(out.c, toolState(t))],
    ['unusable', t.unusableReason],
    ['title', t.title],
    ['description', t.description],
    ['annotations', t.annotations ? jsonText(t.annotations) : null],
    ['last seen', t.lastSeenAt],
  ]);
  if (t.findings.length > 0) {
    out.line(out.c.bold('scan findings:'));
    for (const f of t.findings) out.line(`  ${colorSeverity(out, f.severity)} ${f.rule} at ${f.path}: ${f.message} (${JSON.stringify(f.excerpt)})`);
  }
  out.line(out.c.bold('input schema:'));
  out.line(jsonText(t.inputSchema, 2));
  if (t.outputSchema) {
    out.line(out.c.bold('output schema:'));
    out.line(jsonText(t.outputSchema, 2));
  }
}

/** A finding's severity, colored as the state of something that needs looking at. */
export function colorSeverity(out: Output, severity: string): string {
  return severity === 'high' ? out.c.red(severity) : severity === 'medium' ? out.c.yellow(severity) : out.c.dim(severity);
}

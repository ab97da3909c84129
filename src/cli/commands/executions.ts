import type { Command } from 'commander';
import type { Execution, ProgressEvent } from '../../api-types/rest-api.js';
import type { QueryFor } from '../api-client.js';
import { colorState } from '../colors.js';
import { inContext, type CliContext } from '../context.js';
import { type PageOptions, positiveInt, withPageOptions } from '../input.js';
import { formatDuration, orDash, shortTime, type Output } from '../output.js';
import type { Column, FixedColumn } from '../table.js';
import { indentLines, jsonText } from '../terminal-text.js';
import { ServerUnreachable } from '../errors.js';
import { startProgress } from '../progress.js';
import { describeProgress, printCallOutcome } from './call.js';

type Filters = Pick<QueryFor<'/api/v1/executions', 'get'>, 'tool' | 'source' | 'status' | 'caller' | 'since' | 'until'>;

const filterQuery = (f: Filters) => ({ tool: f.tool, source: f.source, status: f.status, caller: f.caller, since: f.since, until: f.until });

function withFilters(command: Command): Command {
  return command
    .option('-t, --tool <tool>', 'only calls of this tool (qualified name)')
    .option('-s, --source <source>', 'only calls of this source (name or id)')
    .option('--status <status>', 'only these statuses, comma-separated (succeeded, tool_error, invalid_arguments, rejected, …)')
    .option('--caller <principal>', 'only calls of this principal id');
}

const callerName = (e: Execution) => e.caller?.principalName ?? e.caller?.principalId ?? '-';

function columns(out: Output): Column<Execution>[] {
  return [
    { header: 'STARTED', value: (e) => shortTime(e.startedAt) },
    { header: 'STATUS', value: (e) => e.status, style: (t) => colorState(out.c, t) },
    { header: 'TOOL', value: (e) => e.qualifiedName },
    { header: 'DURATION', value: (e) => formatDuration(e.durationMs), align: 'right' },
    { header: 'CALLER', value: callerName },
    { header: 'ERROR', value: (e) => orDash(e.error?.code) },
    { header: 'ID', value: (e) => e.id },
  ];
}

/** The same columns at fixed widths, for rows printed as they come (`tail`): longer values are cut with an ellipsis. */
function tailColumns(out: Output): FixedColumn<Execution>[] {
  const widths: Record<string, number> = { STARTED: 19, STATUS: 17, TOOL: 40, DURATION: 9, CALLER: 20, ERROR: 23, ID: 36 };
  return columns(out).map((column) => ({ ...column, width: widths[column.header]! }));
}

export function registerExecutionCommands(program: Command): void {
  const executions = program.command('executions').description('The history of tool calls');

  withPageOptions(
    withFilters(executions.command('ls').description('List recorded calls, newest first'))
      .option('--since <time>', 'started at or after (ISO 8601)')
      .option('--until <time>', 'started before (ISO 8601)'),
    'calls per page (1-500)',
  ).action(inContext(async ({ api, out }, options: Filters & PageOptions) => {
    const page = await api.getJson('/api/v1/executions', { query: { ...filterQuery(options), limit: options.limit, cursor: options.cursor } });
    out.page(page, columns(out), 'no executions');
  }));

  executions
    .command('get')
    .description('Show one call: who, what, arguments, result or error')
    .argument('<id>', 'execution id')
    .action(inContext(async ({ api, out }, id: string) => {
      out.result(await api.getJson('/api/v1/executions/{id}', { params: { id } }), (execution) => printExecution(out, execution));
    }));

  executions
    .command('wait')
    .description('Wait for a call that runs on (`call --async`, or held for approval) to end, showing its progress; print its result as `call` does')
    .argument('<id>', 'execution id')
    .addHelpText('after', '\nExit status as for `call`: 0 succeeded, 4 tool_error, 1 any other end (cancelled, rejected, …).')
    .action(inContext(async ({ api, out }, id: string) => {
      const progress = startProgress(`waiting for ${id}`);
      let final: Execution | undefined;
      try {
        await api.followEvents('/api/v1/executions/{id}/events', { params: { id }, timeoutMs: undefined }, (event, data) => {
          if (event === 'progress') progress.report(describeProgress(data as ProgressEvent));
          else if (event === 'status') progress.report(`${(data as { status: string }).status}`);
          else if (event === 'result') final = data as Execution;
        });
      } finally {
        progress.stop();
      }
      if (!final) throw new ServerUnreachable(api.baseUrl, 'the events ended before the result');
      printCallOutcome(out, final);
    }));

  executions
    .command('cancel')
    .description('Cancel a call that has not ended: the upstream is told, the execution ends cancelled')
    .argument('<id>', 'execution id')
    .action(inContext(async ({ api, out }, id: string) => {
      const { body } = await api.request('POST', '/api/v1/executions/{id}/cancel', { params: { id } });
      if (out.json) return out.printJson(body);
      out.note(`cancellation asked: execution ${body.id} (${colorState(out.ce, body.status)})`);
    }));

  withFilters(executions.command('tail').description('Print the latest calls; with -f, keep printing new ones as they are recorded until Ctrl-C'))
    .option('-n, --lines <n>', 'how many of the latest calls to print first', positiveInt('--lines'), 10)
    .option('-f, --follow', 'keep polling for new calls')
    .option('--interval <ms>', 'how often to poll with --follow', positiveInt('--interval'), 1000)
    .addHelpText('after', '\nWith --json each call is printed as one JSON object per line (NDJSON).')
    .action(inContext((context, options: Filters & { lines: number; follow?: boolean; interval: number }) => tail(context, options)));
}

// Calls are recorded when they end, so one that started a while before the last poll can still
// appear; each poll looks back this far (by the server's clock) and skips what was printed.
const LOOKBACK_MS = 10 * 60_000;

async function tail(ctx: CliContext, options: Filters & { lines: number; follow?: boolean; interval: number }): Promise<void> {
  const { api, out } = ctx;
  const seen = new Map<string, number>();
  const columns = tailColumns(out);
  const print = (e: Execution) => (out.json ? out.jsonLine(e) : out.fixedRow(e, columns));

  const first = await api.request('GET', '/api/v1/executions', { query: { ...filterQuery(options), limit: Math.min(500, Math.max(options.lines, 100)) } });
  for (const e of first.body.items) seen.set(e.id, Date.parse(e.startedAt));
  if (!out.json) out.fixedHeader(columns);
  for (const e of first.body.items.slice(0, options.lines).reverse()) print(e);
  if (!options.follow) return;

  let serverNow = serverTime(first.headers) ?? Date.now();
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  while (!stop.signal.aborted) {
    await sleep(options.interval, stop.signal);
    if (stop.signal.aborted) break;
    const since = new Date(serverNow - LOOKBACK_MS).toISOString();
    const fresh: Execution[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.request('GET', '/api/v1/executions', { query: { ...filterQuery(options), since, limit: 200, cursor }, signal: stop.signal }).catch((error: unknown) => {
        if (stop.signal.aborted) return undefined;
        throw error;
      });
      if (!page) break;
      serverNow = serverTime(page.headers) ?? serverNow;
      const unseen = page.body.items.filter((e) => !seen.has(e.id));
      fresh.push(...unseen);
      // A page with nothing new means older pages hold nothing new either (newest first).
      cursor = unseen.length > 0 ? (page.body.nextCursor ?? undefined) : undefined;
    } while (cursor && !stop.signal.aborted);
    fresh.sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    for (const e of fresh) {
      seen.set(e.id, Date.parse(e.startedAt));
      print(e);
    }
    for (const [id, started] of seen) if (started < serverNow - 2 * LOOKBACK_MS) seen.delete(id);
  }
}

function serverTime(headers: Headers): number | undefined {
  const date = headers.get('date');
  const parsed = date ? Date.parse(date) : NaN;
  return Number.isNaN(parsed) ? undefined : parsed;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

function printExecution(out: Output, e: Execution): void {
  out.fields([
    ['id', e.id],
    ['tool', e.qualifiedName],
    ['source', e.sourceName],
    ['status', colorState(out.c, e.status)],
    ['started', e.startedAt],
    ['duration', formatDuration(e.durationMs)],
    ['attempts', e.attempts],
    ['caller', [e.caller?.principalName ?? e.caller?.principalId, e.caller?.clientName && `(${e.caller.clientName})`].filter(Boolean).join(' ')],
    ['channel', e.channel],
    ['correlation id', e.caller?.correlationId],
    ['error', e.error ? `${out.c.red(e.error.code)}: ${e.error.message}` : null],
  ]);
  for (const d of e.error?.details ?? []) out.line(`  - ${d.path}: ${indentLines(d.message, 4)}`);
  out.line(out.c.bold('arguments:'));
  out.line(jsonText(e.arguments, 2));
  if (e.result) {
    out.line(out.c.bold('result:'));
    out.line(jsonText(e.result, 2));
  }
}

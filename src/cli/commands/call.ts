import type { Command } from 'commander';
import type { Execution, ExecutionFailure, ProgressEvent } from '../../api-types/rest-api.js';
import { colorState } from '../colors.js';
import { contextOf } from '../context.js';
import { ApiError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { parseJsonObjectOption, positiveInt } from '../input.js';
import { countOf, formatDuration, type Output } from '../output.js';
import { startProgress } from '../progress.js';
import { jsonText } from '../terminal-text.js';

interface CallOptions {
  args?: string;
  timeoutMs?: number;
  correlationId?: string;
  inputResponses?: string;
  requestState?: string;
  async?: boolean;
}

export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('Call a tool through Toolplane and print its result')
    .argument('<tool>', 'qualified tool name, e.g. everything__echo')
    .option('--args <json>', 'the arguments: a JSON object, or @FILE to read it from a file (@- for stdin)', '{}')
    .option('--timeout-ms <ms>', 'cancel the call after this long (default: the source\'s timeout)', positiveInt('--timeout-ms'))
    .option('--correlation-id <id>', 'recorded with the execution (X-Correlation-Id)')
    .option('--input-responses <json>', 'answers to an input_required result, as JSON or @FILE')
    .option('--request-state <state>', 'the requestState of the input_required result being answered')
    .option('--async', 'do not wait: print the execution id at once (Prefer: respond-async); then `toolplane executions wait ID` or `cancel ID`')
    .addHelpText(
      'after',
      `
The result's text goes to stdout, every control character in it but newline and tab shown as an
escape (\\x1b; --json gives it exactly); the upstream's progress while it runs, then the status, duration
and execution id to stderr. With --json the whole execution record is printed. Exit status: 0 succeeded (or input_required), 4 the tool reported
an error (tool_error), 1 the call failed (the error code is printed), 2 bad options, 3 unreachable.
With --async the call runs on without the CLI: its execution id is printed at once (stdout), to
follow with \`toolplane executions wait ID\` or stop with \`toolplane executions cancel ID\`. A call held
for a person's approval is answered the same way, without --async too.

Examples:
  $ toolplane call everything__echo --args '{"message": "hi"}'
  $ toolplane call everything__echo --args @args.json
  $ toolplane call everything__trigger-long-running-operation --args '{"duration": 30}' --async`,
    )
    .action(async (tool: string, options: CallOptions, command: Command) => {
      const args = parseJsonObjectOption(options.args ?? '{}', '--args');
      const inputResponses = options.inputResponses ? parseJsonObjectOption(options.inputResponses, '--input-responses') : undefined;
      const { api, out } = contextOf(command);
      const json = { arguments: args, timeoutMs: options.timeoutMs, inputResponses, requestState: options.requestState };
      const correlation: Record<string, string> = options.correlationId ? { 'x-correlation-id': options.correlationId } : {};
      if (options.async) {
        const { body } = await api.request('POST', '/api/v1/tools/{qualifiedName}/invoke', { params: { qualifiedName: tool }, json, headers: { ...correlation, prefer: 'respond-async' } });
        return printCallOutcome(out, body);
      }
      const progress = startProgress(`calling ${tool}`);
      let execution: Execution;
      try {
        const response = await api.requestWithEvents(
          'POST',
          '/api/v1/tools/{qualifiedName}/invoke',
          {
            params: { qualifiedName: tool },
            json,
            headers: options.correlationId ? correlation : undefined,
            // The server bounds every call (TOOLPLANE_MAX_CALL_TIMEOUT_MS); the CLI waits for its answer.
            timeoutMs: undefined,
          },
          // The upstream's progress notifications, as the server relays them while the call runs.
          (event, data) => {
            if (event === 'progress') progress.report(describeProgress(data as ProgressEvent));
          },
        );
        execution = response.body;
      } catch (error) {
        progress.stop();
        const recorded = error instanceof ApiError ? (error.body as Partial<ExecutionFailure> | undefined)?.execution : undefined;
        if (recorded && !out.json) out.note(out.ce.dim(`execution ${recorded.id} (${recorded.status})`));
        throw error;
      }
      progress.stop();
      printCallOutcome(out, execution);
    });
}

/** The statuses of a call that has not ended (run detached, or held for approval). */
const WAITING: readonly string[] = ['working', 'pending_approval'];
/** The statuses of a call that ran (or asks for input): anything else final is a failure. */
const RAN: readonly string[] = ['succeeded', 'tool_error', 'input_required'];

/**
 * An execution as `call` and `executions wait` print it: the result (or the whole record with
 * --json); a call still under way by its id, to wait for; the exit status as `call` documents it.
 */
export function printCallOutcome(out: Output, execution: Execution): void {
  if (WAITING.includes(execution.status)) {
    if (out.json) out.printJson(execution);
    else out.line(execution.id);
    const why = execution.status === 'pending_approval' ? 'waits for approval' : 'runs on';
    out.note(`${colorState(out.ce, execution.status)}: the call ${why}; follow it with ${out.ce.bold(`toolplane executions wait ${execution.id}`)}`);
    return;
  }
  if (out.json) out.printJson(execution);
  else printResult(out, execution);
  if (execution.status === 'tool_error') process.exitCode = EXIT.toolError;
  else if (!RAN.includes(execution.status)) process.exitCode = EXIT.failed;
}

function printResult(out: Output, execution: Execution): void {
  const result = execution.result;
  if (execution.status === 'input_required' && result) {
    out.printJson({ inputRequests: result.inputRequests, requestState: result.requestState });
    out.note(out.ce.yellow('the tool asks for input: call again with --input-responses and --request-state'));
  } else if (execution.error && !RAN.includes(execution.status)) {
    out.note(`${out.ce.red(execution.error.code)}: ${execution.error.message}`);
  } else if (result) {
    const text = contentText(result.content);
    if (text !== undefined) out.write(text.endsWith('\n') ? text : text + '\n');
    else if (result.structuredContent !== undefined) out.printJson(result.structuredContent);
    if (result.truncated) out.note(out.ce.yellow(`the result was truncated (${countOf(result.originalBytes, 'byte')} in full)`));
  }
  out.note(`${colorState(out.ce, execution.status)} in ${formatDuration(execution.durationMs)} ${out.ce.dim(`(execution ${execution.id})`)}`);
}

/** `progress 3/10: message`, as far as the upstream said. */
export function describeProgress({ progress, total, message }: ProgressEvent): string {
  const amount = total !== undefined ? `${progress}/${total}` : String(progress);
  return `progress ${amount}${message ? `: ${message}` : ''}`;
}

/** Text blocks as they are; any other block (image, resource, …) as one JSON line. */
function contentText(content: Record<string, unknown>[] | undefined): string | undefined {
  if (!content || content.length === 0) return undefined;
  return content.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : jsonText(block))).join('\n');
}

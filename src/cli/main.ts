#!/usr/bin/env node
import { CommanderError } from 'commander';
import { ApiError, CliError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { Output } from './output.js';
import { buildProgram } from './program.js';
import { indentLines } from './terminal-text.js';

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = report(error, new Output(argv.includes('--json'), { noColor: argv.includes('--no-color') }));
  }
  // Idle keep-alive connections would hold the process for seconds after the work is done.
  process.exit();
}

/** Prints a failure the way scripts and people both read it, and returns the exit code. */
function report(error: unknown, out: Output): number {
  if (error instanceof CommanderError) {
    // Commander has printed its message (or the help) already.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const c = out.ce;
  if (error instanceof ApiError) {
    if (out.json && error.body !== undefined) out.printJson(error.body);
    const lines = [
      `${c.red(`error ${error.code}`)}: ${indentLines(error.message, 2)}`,
      ...error.problems.map((p) => `  - ${p.path ? `${p.path}: ` : ''}${indentLines(p.message, 4)}`),
      ...(error.hint ? [`  ${indentLines(error.hint, 2)}`] : []),
    ];
    out.note(lines.join('\n'));
    return error.exitCode;
  }
  if (error instanceof CliError) {
    out.note(`${c.red('error')}: ${indentLines(error.message, 2)}`);
    return error.exitCode;
  }
  out.note(`${c.red('error')}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return EXIT.failed;
}

void main(process.argv);

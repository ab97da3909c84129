#!/usr/bin/env node
import { CommanderError } from 'commander';
import { colors, useColor } from './colors.js';
import { ApiError, CliError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = report(error, argv.includes('--json'));
  }
  // Idle keep-alive connections would hold the process for seconds after the work is done.
  process.exit();
}

/** Prints a failure the way scripts and people both read it, and returns the exit code. */
function report(error: unknown, json: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has printed its message (or the help) already.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const c = colors(useColor(process.stderr, process.env, process.argv.includes('--no-color')));
  if (error instanceof ApiError) {
    if (json && error.body !== undefined) process.stdout.write(JSON.stringify(error.body, null, 2) + '\n');
    const lines = [`${c.red(`error ${error.code}`)}: ${error.message}`, ...error.problems.map((p) => `  - ${p.path ? `${p.path}: ` : ''}${p.message}`)];
    process.stderr.write(lines.join('\n') + '\n');
    return error.exitCode;
  }
  if (error instanceof CliError) {
    process.stderr.write(`${c.red('error')}: ${error.message}\n`);
    return error.exitCode;
  }
  process.stderr.write(`${c.red('error')}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.failed;
}

void main(process.argv);

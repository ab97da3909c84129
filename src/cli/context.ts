import type { Command } from 'commander';
import { packageVersion } from '../shared/package-version.js';
import { ApiClient } from './api-client.js';
import { keyAdvice, resolveConnection, type ConnectionSettings } from './connection-settings.js';
import { Output } from './output.js';

export interface GlobalOptions {
  url?: string;
  key?: string;
  json?: boolean;
  color?: boolean;
}

/** What every command works with: the API (as the options, environment and config file say) and the output. */
export interface CliContext {
  api: ApiClient;
  out: Output;
  settings: ConnectionSettings;
}

export function outputOf(command: Command): Output {
  const options = command.optsWithGlobals<GlobalOptions>();
  return new Output(options.json === true, { noColor: options.color === false });
}

export function contextOf(command: Command): CliContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const out = outputOf(command);
  const settings = resolveConnection({ url: options.url, key: options.key });
  for (const warning of settings.warnings) out.note(out.ce.yellow(`warning: ${warning}`));
  return { api: new ApiClient(settings.url, settings.key, `toolplane-cli/${CLI_VERSION}`, keyAdvice(settings)), out, settings };
}

/** A command's action that works in the CLI context: it gets the context, then the arguments and options commander passes. */
export function inContext<A extends unknown[]>(run: (context: CliContext, ...args: A) => Promise<void>): (...args: unknown[]) => Promise<void> {
  return (...args) => run(contextOf(args.at(-1) as Command), ...(args.slice(0, -1) as A));
}

export const CLI_VERSION = packageVersion() ?? 'dev';

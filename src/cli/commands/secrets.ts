import type { Command } from 'commander';
import { inContext } from '../context.js';
import { UsageError } from '../errors.js';
import { type PageOptions, withPageOptions } from '../input.js';
import { shortTime } from '../output.js';
import { readSecretValue } from '../secret-input.js';
import { addRemoveCommand } from './remove-command.js';

export function registerSecretCommands(program: Command): void {
  const secrets = program.command('secrets').description('Secrets that sources refer to as ${secret:NAME}: stored encrypted, never shown');

  secrets
    .command('put')
    .description('Store a secret, or replace its value: typed at a prompt that does not show it, or read from standard input')
    .argument('<name>', 'the secret\'s name, e.g. GITHUB_TOKEN')
    .option('--value <value>', 'the value itself (kept in the shell\'s history and seen in the process list: prefer the prompt or a pipe)')
    .addHelpText(
      'after',
      `
On a terminal the value is asked for and not shown; otherwise standard input is the value, without
the line break that ends it.

Examples:
  $ toolplane secrets put GITHUB_TOKEN
  $ printf %s "$GITHUB_TOKEN" | toolplane secrets put GITHUB_TOKEN
  $ toolplane secrets put TLS_KEY < key.pem`,
    )
    .action(inContext(async ({ api, out }, name: string, options: { value?: string }) => {
      if (options.value !== undefined) {
        out.note(out.ce.yellow('warning: a value on the command line is kept in the shell\'s history and seen by other users in the process list; type it at the prompt or pipe it in instead'));
      }
      const value = options.value ?? (await readSecretValue(name));
      if (value === '') throw new UsageError('no value given: type it at the prompt (on a terminal) or pipe it in, e.g. printf %s "$TOKEN" | toolplane secrets put NAME');
      const response = await api.request('PUT', '/api/v1/secrets/{name}', { params: { name }, json: { value } });
      if (out.json) return out.printJson(response.body);
      out.note(`${response.status === 201 ? 'created' : 'replaced'} secret ${response.body.name}`);
    }));

  withPageOptions(
    secrets
      .command('ls')
      .description('List the secrets\' names (never their values)'),
    'secrets per page (1-500)',
  ).action(inContext(async ({ api, out }, options: PageOptions) => {
    const page = await api.getJson('/api/v1/secrets', { query: { limit: options.limit, cursor: options.cursor } });
    out.page(
      page,
      [
        { header: 'NAME', value: (s) => s.name },
        { header: 'CREATED', value: (s) => shortTime(s.createdAt) },
        { header: 'UPDATED', value: (s) => shortTime(s.updatedAt) },
      ],
      'no secrets (store one with "toolplane secrets put NAME")',
    );
  }));

  addRemoveCommand(secrets, {
    description: 'Remove a secret; sources that refer to it fail until it is stored again',
    argument: 'the secret\'s name',
    path: '/api/v1/secrets/{name}',
    said: (name) => `removed secret ${name}`,
  });

  registerOwnSecretCommands(secrets);
}

/** `secrets mine`: the caller's own values, which sources refer to as ${user-secret:NAME}. */
function registerOwnSecretCommands(secrets: Command): void {
  const mine = secrets.command('mine').description('Your own secret values, which sources that sign in per user refer to as ${user-secret:NAME}: stored encrypted, never shown');

  mine
    .command('put')
    .description('Store your value of a secret, or replace it: typed at a prompt that does not show it, or read from standard input')
    .argument('<name>', 'the secret\'s name, as the source refers to it, e.g. JIRA_TOKEN')
    .addHelpText(
      'after',
      `
On a terminal the value is asked for and not shown; otherwise standard input is the value, without
the line break that ends it. It is never taken from the command line.

Examples:
  $ toolplane secrets mine put JIRA_TOKEN
  $ printf %s "$JIRA_TOKEN" | toolplane secrets mine put JIRA_TOKEN`,
    )
    .action(inContext(async ({ api, out }, name: string) => {
      const value = await readSecretValue(name);
      if (value === '') throw new UsageError('no value given: type it at the prompt (on a terminal) or pipe it in, e.g. printf %s "$TOKEN" | toolplane secrets mine put NAME');
      const response = await api.request('PUT', '/api/v1/me/secrets/{name}', { params: { name }, json: { value } });
      if (out.json) return out.printJson(response.body);
      out.note(`${response.status === 201 ? 'stored' : 'replaced'} your secret ${response.body.name}`);
    }));

  mine
    .command('ls')
    .description('List the names of your secret values (never the values)')
    .action(inContext(async ({ api, out }) => {
      const body = await api.getJson('/api/v1/me/secrets');
      out.page(
        body,
        [
          { header: 'NAME', value: (s) => s.name },
          { header: 'CREATED', value: (s) => shortTime(s.createdAt) },
          { header: 'UPDATED', value: (s) => shortTime(s.updatedAt) },
        ],
        'no secret values of yours (store one with "toolplane secrets mine put NAME")',
      );
    }));

  addRemoveCommand(mine, {
    description: 'Remove your value of a secret; calls to sources that need it are refused until it is stored again',
    argument: 'the secret\'s name',
    path: '/api/v1/me/secrets/{name}',
    said: (name) => `removed your secret ${name}`,
  });
}

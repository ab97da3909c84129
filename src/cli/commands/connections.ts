import type { Command } from 'commander';
import { colorState } from '../colors.js';
import { inContext } from '../context.js';
import { orDash, shortTime } from '../output.js';

const scopesOf = (scopes: string[] | null | undefined) => (scopes?.length ? scopes.join(' ') : '-');

export function registerConnectCommand(program: Command): void {
  program
    .command('connect')
    .description('Print the link that connects you to a source that signs in per user (OAuth); it opens nothing')
    .argument('<source>', 'the source\'s name')
    .addHelpText(
      'after',
      `
Open the link in a browser, sign in upstream and consent: Toolplane keeps the tokens, and your
calls through it then use them. The link is yours alone (it carries a single-use state) and
works for a few minutes.

Examples:
  $ toolplane connect github
  $ toolplane connections ls`,
    )
    .action(inContext(async ({ api, out }, source: string) => {
      const { body } = await api.request('GET', '/api/v1/sources/{name}/connect', { params: { name: source } });
      if (out.json) return out.printJson(body);
      out.line(body.authorizationUrl);
      out.note(`open this link in a browser to connect ${source} (valid until ${shortTime(body.expiresAt)} UTC); "toolplane connections ls" then shows it`);
    }));
}

export function registerConnectionCommands(program: Command): void {
  const connections = program.command('connections').description('Your connections to sources that sign in per user; admins: every principal\'s, per source');

  connections
    .command('ls')
    .description('List your connections, and the sources that still need one; with --source (admin), every principal\'s connection to that source')
    .option('--source <name>', 'every principal\'s connection to this source (needs keys:manage)')
    .action(inContext(async ({ api, out }, options: { source?: string }) => {
      if (options.source !== undefined) {
        const { body } = await api.request('GET', '/api/v1/sources/{name}/connections', { params: { name: options.source } });
        return out.page(
          body,
          [
            { header: 'PRINCIPAL', value: (c) => c.principalId },
            { header: 'NAME', value: (c) => orDash(c.principalName) },
            { header: 'STATUS', value: (c) => c.status, style: (t) => colorState(out.c, t) },
            { header: 'SCOPES', value: (c) => scopesOf(c.scopes), maxWidth: 40 },
            { header: 'EXPIRES', value: (c) => shortTime(c.expiresAt) },
            { header: 'CONNECTED', value: (c) => shortTime(c.connectedAt) },
          ],
          `nobody is connected to ${options.source}`,
        );
      }
      const { body } = await api.request('GET', '/api/v1/me/connections');
      out.page(
        body,
        [
          { header: 'SOURCE', value: (c) => c.source },
          { header: 'STATUS', value: (c) => c.status, style: (t) => colorState(out.c, t) },
          { header: 'SCOPES', value: (c) => scopesOf(c.scopes), maxWidth: 40 },
          { header: 'EXPIRES', value: (c) => shortTime(c.expiresAt) },
          { header: 'CONNECTED', value: (c) => shortTime(c.connectedAt) },
        ],
        'no source needs a connection of yours',
      );
    }));

  connections
    .command('rm')
    .description('Disconnect from a source: its tokens are revoked upstream (when it offers that) and forgotten')
    .argument('<source>', 'the source\'s name')
    .action(inContext(async ({ api, out }, source: string) => {
      await api.request('DELETE', '/api/v1/me/connections/{source}', { params: { source } });
      if (out.json) return out.printJson({ disconnected: source });
      out.note(`disconnected from ${source}`);
    }));

  connections
    .command('revoke')
    .description('Revoke one principal\'s connection to a source (admin): its tokens are revoked upstream and forgotten')
    .requiredOption('--source <name>', 'the source\'s name')
    .argument('<principal>', 'the principal\'s id (see "toolplane connections ls --source NAME")')
    .action(inContext(async ({ api, out }, principalId: string, options: { source: string }) => {
      await api.request('DELETE', '/api/v1/sources/{name}/connections/{principalId}', { params: { name: options.source, principalId } });
      if (out.json) return out.printJson({ revoked: { source: options.source, principalId } });
      out.note(`revoked ${principalId}'s connection to ${options.source}`);
    }));
}

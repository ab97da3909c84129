import type { Command } from 'commander';
import type { ApiKey } from '../../api-types/rest-api.js';
import { colorState } from '../colors.js';
import { inContext } from '../context.js';
import { commaList, type PageOptions, positiveInt, withPageOptions } from '../input.js';
import { orDash, shortTime } from '../output.js';

interface CreateOptions {
  role: ApiKey['role'];
  owner?: string;
  expiresAt?: string;
  allowedSources?: string[];
  allowedTools?: string[];
  allowedGroups?: string[];
  rateLimit?: number;
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('API keys: who may use Toolplane, with which role');

  keys
    .command('create')
    .description('Create an API key; the key itself is shown this once')
    .argument('<name>', 'what the key is for, e.g. billing-agent')
    .requiredOption('-r, --role <role>', 'admin, operator, agent or auditor')
    .option('--owner <owner>', 'whom the key belongs to: a person, a team, an agent')
    .option('--expires-at <time>', 'refused from then on (ISO 8601)')
    .option('--allowed-sources <patterns>', 'comma-separated source names (* for any run of characters) whose tools the key may use', commaList)
    .option('--allowed-tools <patterns>', 'comma-separated qualified tool names (* patterns) the key may use', commaList)
    .option('--allowed-groups <patterns>', 'comma-separated tool group names (* patterns): the key then sees and calls tools only through these groups', commaList)
    .option('--rate-limit <n>', 'calls per minute of this key', positiveInt('--rate-limit'))
    .action(inContext(async ({ api, out }, name: string, options: CreateOptions) => {
      const { body } = await api.request('POST', '/api/v1/api-keys', {
        json: {
          name,
          role: options.role,
          owner: options.owner,
          expiresAt: options.expiresAt,
          allowedSources: options.allowedSources,
          allowedTools: options.allowedTools,
          allowedGroups: options.allowedGroups,
          rateLimitPerMinute: options.rateLimit,
        },
      });
      if (out.json) return out.printJson(body);
      out.line(body.key ?? '');
      out.note(out.ce.yellow(`key ${body.name} (${body.role}, id ${body.id}) created; it is shown only this once, store it now`));
    }));

  withPageOptions(
    keys
      .command('ls')
      .description('List API keys (never the keys themselves)'),
    'keys per page',
  ).action(inContext(async ({ api, out }, options: PageOptions) => {
    const page = await api.getJson('/api/v1/api-keys', { query: { limit: options.limit, cursor: options.cursor } });
    out.page(
      page,
      [
        { header: 'ID', value: (k) => k.id },
        { header: 'NAME', value: (k) => k.name },
        { header: 'ROLE', value: (k) => k.role },
        { header: 'STATE', value: (k) => k.state, style: (t) => colorState(out.c, t) },
        { header: 'PREFIX', value: (k) => k.prefix },
        { header: 'OWNER', value: (k) => orDash(k.owner) },
        { header: 'LAST USED', value: (k) => shortTime(k.lastUsedAt) },
        { header: 'EXPIRES', value: (k) => shortTime(k.expiresAt) },
      ],
      'no API keys',
    );
  }));

  keys
    .command('revoke')
    .description('Revoke an API key: it is refused from now on')
    .argument('<id>', 'the key\'s id (see "toolplane keys ls")')
    .action(inContext(async ({ api, out }, id: string) => {
      const { body } = await api.request('DELETE', '/api/v1/api-keys/{id}', { params: { id } });
      if (out.json) return out.printJson(body);
      out.note(`revoked ${body.name} (${body.id})`);
    }));
}

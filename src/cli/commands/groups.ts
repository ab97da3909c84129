import type { Command } from 'commander';
import { parse } from 'yaml';
import type { BodyOf, Group } from '../../api-types/rest-api.js';
import { inContext } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { type PageOptions, readInputFile, withPageOptions } from '../input.js';
import { orDash, shortTime } from '../output.js';
import { addRemoveCommand } from './remove-command.js';

/** Every setting of a group, with the value it has when a file leaves it out. */
const DEFAULTS: Record<string, unknown> = { description: '', select: [], include: [], exclude: [], overrides: {} };

export function registerGroupCommands(program: Command): void {
  const groups = program.command('groups').description('Tool groups: curated sets of tools, each its own MCP server at /mcp/groups/{name}');

  withPageOptions(groups.command('ls').description('List the tool groups'), 'groups per page (1-200)').action(
    inContext(async ({ api, out }, options: PageOptions) => {
      const page = await api.getJson('/api/v1/groups', { query: { limit: options.limit, cursor: options.cursor } });
      out.page(
        page,
        [
          { header: 'NAME', value: (g) => g.name },
          { header: 'MCP', value: (g) => g.mcpPath },
          { header: 'DESCRIPTION', value: (g) => orDash(g.description.split('\n')[0]?.slice(0, 60)) },
          { header: 'UPDATED', value: (g) => shortTime(g.updatedAt) },
        ],
        'no groups (declare one with "toolplane groups apply -f group.yaml")',
      );
    }),
  );

  groups
    .command('get')
    .description('Show a group: its selection, its overrides, and the tools it serves under their names')
    .argument('<name>', 'the group\'s name')
    .action(inContext(async ({ api, out }, name: string) => {
      const group = await api.getJson('/api/v1/groups/{name}', { params: { name } });
      const tools = await api.getJson('/api/v1/tools', { query: { group: name, format: 'mcp', limit: 500 } });
      const served = tools.items as { name: string; description?: string }[];
      if (out.json) return out.printJson({ ...group, tools: served });
      out.fields([
        ['Name', group.name],
        ['Description', group.description],
        ['MCP', group.mcpPath],
        ['Selects', group.select.length ? JSON.stringify(group.select) : null],
        ['Includes', group.include.join(', ')],
        ['Excludes', group.exclude.join(', ')],
        ['Overrides', Object.keys(group.overrides).join(', ')],
        ['Version', group.version],
        ['Updated', `${shortTime(group.updatedAt)} by ${group.updatedBy}`],
      ]);
      out.line();
      out.table(served, [
        { header: 'TOOL', value: (t) => t.name },
        { header: 'DESCRIPTION', value: (t) => orDash(t.description?.split('\n')[0]?.slice(0, 80)) },
      ], 'the group serves no tool');
      out.moreHint(tools.nextCursor);
    }));

  groups
    .command('apply')
    .description('Create a group, or make the group of that name exactly what a file declares (settings it leaves out go back to their defaults)')
    .requiredOption('-f, --file <file>', 'the group as YAML or JSON, in the shape of POST /api/v1/groups ("-" for stdin)')
    .addHelpText(
      'after',
      `
Example group.yaml:
  name: support
  description: The support bot's tools
  select:
    - sources: [tickets]
    - sources: [github]
      annotations: { readOnlyHint: true }
  overrides:
    github__get_file_contents:
      locked: { owner: acme, repo: website }

  $ toolplane groups apply -f group.yaml`,
    )
    .action(inContext(async ({ api, out }, options: { file: string }) => {
      const declared = readGroupFile(options.file);
      const name = declared.name;
      if (typeof name !== 'string') throw new UsageError(`${options.file} must give the group's name (name: …)`);
      const current = await findGroup(() => api.getJson('/api/v1/groups/{name}', { params: { name } }));
      let group: Group;
      let said: string;
      if (!current) {
        group = (await api.request('POST', '/api/v1/groups', { json: declared as BodyOf<'/api/v1/groups', 'post'> })).body;
        said = 'created';
      } else {
        const { name: _name, ...settings }: Record<string, unknown> = { ...DEFAULTS, ...declared };
        group = (await api.request('PATCH', '/api/v1/groups/{name}', { params: { name }, json: settings as BodyOf<'/api/v1/groups/{name}', 'patch'> })).body;
        said = group.version === current.version ? 'unchanged' : 'updated';
      }
      if (out.json) return out.printJson(group);
      out.note(`${said} group ${group.name}: served at ${group.mcpPath}`);
    }));

  addRemoveCommand(groups, {
    description: 'Remove a group: its MCP endpoint and catalog view are gone; its executions keep its name',
    argument: 'the group\'s name',
    path: '/api/v1/groups/{name}',
    said: (name) => `removed group ${name}`,
  });
}

/** The group a file declares: one YAML or JSON mapping. */
function readGroupFile(file: string): Record<string, unknown> {
  const text = readInputFile(file, 'the group');
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${file} must hold one group: a mapping with name, description, select…`);
  return value as Record<string, unknown>;
}

/** The group, or undefined when there is none of that name. */
async function findGroup(get: () => Promise<Group>): Promise<Group | undefined> {
  try {
    return await get();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

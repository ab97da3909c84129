import type { Command } from 'commander';
import { parse } from 'yaml';
import type { BodyOf, Interceptor } from '../../api-types/rest-api.js';
import { inContext } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { type PageOptions, readInputFile, withPageOptions } from '../input.js';
import { orDash, shortTime } from '../output.js';
import { addRemoveCommand } from './remove-command.js';

/** What the API answers beside an interceptor's own fields. */
const RECORD_FIELDS = new Set(['name', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
const COMMON_FIELDS = new Set(['description', 'kind', 'phase', 'order', 'scope', 'onError', 'timeoutMs', 'enabled']);

export function registerInterceptorCommands(program: Command): void {
  const interceptors = program.command('interceptors').description('Interceptors: configured stages every tool call in their scope goes through, before the upstream is called (pre) or after it answered (post)');

  withPageOptions(interceptors.command('ls').description('List the interceptors'), 'interceptors per page (1-200)').action(
    inContext(async ({ api, out }, options: PageOptions) => {
      const page = await api.getJson('/api/v1/interceptors', { query: { limit: options.limit, cursor: options.cursor } });
      out.page(
        page,
        [
          { header: 'NAME', value: (i) => i.name },
          { header: 'KIND', value: (i) => i.kind },
          { header: 'PHASE', value: (i) => i.phase },
          { header: 'ORDER', value: (i) => String(i.order) },
          { header: 'SCOPE', value: (i) => scopeOf(i.scope) },
          { header: 'ENABLED', value: (i) => (i.enabled ? 'yes' : 'no') },
          { header: 'UPDATED', value: (i) => shortTime(i.updatedAt) },
        ],
        'no interceptors (declare one with "toolplane interceptors apply -f interceptor.yaml")',
      );
    }),
  );

  interceptors
    .command('get')
    .description("Show an interceptor: where it applies, how it runs, and its kind's settings")
    .argument('<name>', "the interceptor's name")
    .action(inContext(async ({ api, out }, name: string) => {
      const interceptor = await api.getJson('/api/v1/interceptors/{name}', { params: { name } });
      if (out.json) return out.printJson(interceptor);
      const settings = Object.entries(interceptor).filter(([field]) => !RECORD_FIELDS.has(field) && !COMMON_FIELDS.has(field));
      out.fields([
        ['Name', interceptor.name],
        ['Description', interceptor.description],
        ['Kind', interceptor.kind],
        ['Phase', interceptor.phase],
        ['Order', interceptor.order],
        ['Scope', scopeOf(interceptor.scope)],
        ['On error', interceptor.onError],
        ['Timeout', `${interceptor.timeoutMs} ms`],
        ['Enabled', interceptor.enabled ? 'yes' : 'no'],
        ...settings.map(([field, value]): [string, string] => [field, JSON.stringify(value)]),
        ['Version', interceptor.version],
        ['Updated', `${shortTime(interceptor.updatedAt)} by ${interceptor.updatedBy}`],
      ]);
    }));

  interceptors
    .command('apply')
    .description('Create an interceptor, or make the interceptor of that name exactly what a file declares (settings it leaves out go back to their defaults)')
    .requiredOption('-f, --file <file>', 'the interceptor as YAML or JSON, in the shape of POST /api/v1/interceptors ("-" for stdin)')
    .addHelpText(
      'after',
      `
Example no-etc.yaml:
  name: no-etc
  description: Keeps agents out of /etc
  kind: deny
  scope: { tools: ["fs__*"] }
  rules:
    - argument: path
      pathUnder: /etc
      message: Files under /etc are off limits.

  $ toolplane interceptors apply -f no-etc.yaml`,
    )
    .action(inContext(async ({ api, out }, options: { file: string }) => {
      const declared = readInterceptorFile(options.file);
      const name = declared.name;
      if (typeof name !== 'string') throw new UsageError(`${options.file} must give the interceptor's name (name: …)`);
      const current = await findInterceptor(() => api.getJson('/api/v1/interceptors/{name}', { params: { name } }));
      let interceptor: Interceptor;
      let said: string;
      if (!current) {
        interceptor = (await api.request('POST', '/api/v1/interceptors', { json: declared as BodyOf<'/api/v1/interceptors', 'post'> })).body;
        said = 'created';
      } else {
        // Every field the interceptor has and the file leaves out goes back to its default (null); only the version read is changed.
        const cleared = Object.fromEntries(Object.keys(current).filter((field) => !RECORD_FIELDS.has(field)).map((field) => [field, null]));
        const { name: _name, ...settings } = declared;
        const change = { ...cleared, ...settings, version: current.version };
        interceptor = (await api.request('PATCH', '/api/v1/interceptors/{name}', { params: { name }, json: change as BodyOf<'/api/v1/interceptors/{name}', 'patch'> })).body;
        said = interceptor.version === current.version ? 'unchanged' : 'updated';
      }
      if (out.json) return out.printJson(interceptor);
      out.note(`${said} interceptor ${interceptor.name}: ${interceptor.kind}, ${interceptor.phase}, order ${interceptor.order}${interceptor.enabled ? '' : ' (disabled)'}`);
    }));

  addRemoveCommand(interceptors, {
    description: 'Remove an interceptor: no call runs it any more; executions keep what it did',
    argument: "the interceptor's name",
    path: '/api/v1/interceptors/{name}',
    said: (name) => `removed interceptor ${name}`,
  });
}

function scopeOf(scope: { source?: string; group?: string; tools?: string[] }): string {
  const parts = [scope.source && `source ${scope.source}`, scope.group && `group ${scope.group}`, scope.tools && `tools ${scope.tools.join(',')}`].filter(Boolean);
  return orDash(parts.join('; '));
}

/** The interceptor a file declares: one YAML or JSON mapping. */
function readInterceptorFile(file: string): Record<string, unknown> {
  const text = readInputFile(file, 'the interceptor');
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${file} must hold one interceptor: a mapping with name, kind and its settings`);
  return value as Record<string, unknown>;
}

/** The interceptor, or undefined when there is none of that name. */
async function findInterceptor(get: () => Promise<Interceptor>): Promise<Interceptor | undefined> {
  try {
    return await get();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

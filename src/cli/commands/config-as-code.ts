import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { colorState } from '../colors.js';
import { contextOf, inContext } from '../context.js';
import { UsageError } from '../errors.js';
import { readInputFile } from '../input.js';

export function registerConfigCommands(program: Command): void {
  program
    .command('apply')
    .description('Make Toolplane\'s sources match a YAML file (config as code)')
    .requiredOption('-f, --file <file>', 'the YAML file ("-" for stdin)')
    .option('--dry-run', 'show what would change without changing anything')
    .option('--prune', 'also remove sources the file does not name (and the groups and interceptors it does not name when it has groups: or interceptors:, and revoke active keys it does not name when it has keys:)')
    .addHelpText(
      'after',
      `
Examples:
  $ toolplane apply -f toolplane.yaml --dry-run
  $ toolplane apply -f toolplane.yaml --prune`,
    )
    .action(async (options: { file: string; dryRun?: boolean; prune?: boolean }, command: Command) => {
      const yaml = readInputFile(options.file, 'the configuration');
      const { api, out } = contextOf(command);
      const { body } = await api.request('POST', '/api/v1/config/apply', {
        query: { dryRun: options.dryRun === true, prune: options.prune === true },
        text: { body: yaml, contentType: 'application/yaml' },
        timeoutMs: 300_000,
      });
      if (out.json) return out.printJson(body);
      out.table(
        body.changes,
        [
          { header: 'KIND', value: (c) => c.kind },
          { header: 'NAME', value: (c) => c.name },
          { header: 'ACTION', value: (c) => c.action, style: (t) => colorState(out.c, t) },
          { header: 'FIELDS', value: (c) => (c.fields.length > 0 ? c.fields.join(', ') : '-') },
        ],
        'nothing in the file',
      );
      const n = (action: keyof typeof body.summary) => body.summary[action];
      out.note(
        body.dryRun
          ? `dry run: would create ${n('create')}, update ${n('update')}, delete ${n('delete')}; ${n('unchanged')} unchanged; nothing was changed`
          : `created ${n('create')}, updated ${n('update')}, deleted ${n('delete')}; ${n('unchanged')} unchanged`,
      );
    });

  program
    .command('export')
    .description('Print the sources as YAML, in the form "toolplane apply" takes')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(inContext(async ({ api, out }, options: { output?: string }) => {
      const { text } = await api.request('GET', '/api/v1/config/export', { accept: 'text/yaml, application/yaml' });
      if (!options.output) return out.verbatim(text.endsWith('\n') || text === '' ? text : text + '\n');
      try {
        writeFileSync(options.output, text);
      } catch (error) {
        throw new UsageError(`cannot write ${options.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      out.note(`wrote ${options.output}`);
    }));
}

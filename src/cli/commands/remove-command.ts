import type { Command } from 'commander';
import { inContext } from '../context.js';

/** The API's paths that remove one thing by its `{name}`. */
type RemovalByName = '/api/v1/groups/{name}' | '/api/v1/interceptors/{name}' | '/api/v1/secrets/{name}' | '/api/v1/me/secrets/{name}';

interface Removal {
  description: string;
  /** How the `<name>` argument is described. */
  argument: string;
  path: RemovalByName;
  /** What the command says once it is gone (with --json it prints `{ "removed": name }`). */
  said: (name: string) => string;
}

/** `rm <name>` under `parent`: one DELETE of what `path` names. */
export function addRemoveCommand(parent: Command, removal: Removal): void {
  parent
    .command('rm')
    .description(removal.description)
    .argument('<name>', removal.argument)
    .action(inContext(async ({ api, out }, name: string) => {
      await api.request('DELETE', removal.path, { params: { name } });
      if (out.json) return out.printJson({ removed: name });
      out.note(removal.said(name));
    }));
}

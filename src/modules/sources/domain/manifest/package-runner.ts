/** How npx is told to go on without asking: its own options, before the package it runs. */
const NPX_YES = new Set(['-y', '--yes', '--yes=true']);

/**
 * The arguments of a launch derived from a manifest, with what a package runner needs to run
 * unattended (a plugin has no terminal to answer a prompt). npx asks before installing a package it
 * does not have, and npm 11 refuses to go on when nobody can answer: it is told yes. uvx and docker
 * (`run -i --rm`) never ask, and are left as they are.
 */
export function unattended(command: string, args: string[]): string[] {
  if (command.slice(command.lastIndexOf('/') + 1) !== 'npx') return args;
  for (const arg of args) {
    if (NPX_YES.has(arg)) return args;
    if (!arg.startsWith('-')) break; // the package: what follows is its own
  }
  return ['-y', ...args];
}

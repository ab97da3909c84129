/**
 * A call's arguments within a group: the caller's, with the group's defaults for those it left out
 * (or sent as null, as an OpenAI strict-mode client does for what it leaves out) and its locked
 * values, which the caller may not give at all: `lockedGiven` names each one it gave.
 */
export function withGroupArguments(
  given: Record<string, unknown>,
  served: { locked: Readonly<Record<string, unknown>>; defaults: Readonly<Record<string, unknown>> },
): { arguments: Record<string, unknown> } | { lockedGiven: string[] } {
  const lockedGiven = Object.keys(served.locked).filter((name) => Object.hasOwn(given, name));
  if (lockedGiven.length > 0) return { lockedGiven };
  const args: Record<string, unknown> = { ...given };
  for (const [name, value] of Object.entries(served.defaults)) if (!Object.hasOwn(given, name) || given[name] === null) define(args, name, value);
  for (const [name, value] of Object.entries(served.locked)) define(args, name, value);
  return { arguments: args };
}

function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

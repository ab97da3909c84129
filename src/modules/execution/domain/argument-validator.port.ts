import type { ProblemDetail } from '../../../shared/domain-error.js';

/** What checking arguments found: the problems (none when they fit), or why the tool cannot be checked at all. */
export type ArgumentCheck = { problems: ProblemDetail[] } | { unusable: string };

/** Checks arguments against a tool's inputSchema; compiled once per definition hash. */
export abstract class ArgumentValidator {
  /** Answers at once when the schema is compiled already, later while it is being compiled. */
  abstract validate(definitionHash: string, schema: Record<string, unknown>, args: unknown): ArgumentCheck | Promise<ArgumentCheck>;
}

import type { ProblemDetail } from '../../../shared/domain-error.js';

/** Checks arguments against a tool's inputSchema; compiled once per definition hash. */
export abstract class ArgumentValidator {
  abstract validate(definitionHash: string, schema: Record<string, unknown>, args: unknown): ProblemDetail[];
}

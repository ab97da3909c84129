import type { ProblemDetail } from '../../../shared/domain-error.js';
import { ArgumentValidator, type ArgumentCheck } from '../domain/argument-validator.port.js';

/**
 * ArgumentValidator that checks only the `required` list of the schema's top level, or answers what
 * `answer` says; answers later (as while compiling) when `compiling` is set. Keeps what it was asked.
 */
export class FakeArgumentValidator extends ArgumentValidator {
  readonly checked: { definitionHash: string; args: unknown }[] = [];
  answer: ((args: unknown) => ArgumentCheck) | undefined;
  compiling = false;

  validate(definitionHash: string, schema: Record<string, unknown>, args: unknown): ArgumentCheck | Promise<ArgumentCheck> {
    this.checked.push({ definitionHash, args });
    const check = this.answer ? this.answer(args) : { problems: missing(schema, args) };
    return this.compiling ? Promise.resolve(check) : check;
  }
}

function missing(schema: Record<string, unknown>, args: unknown): ProblemDetail[] {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const given = args as Record<string, unknown>;
  return required.filter((name) => !Object.hasOwn(given, name)).map((name) => ({ path: `arguments.${name}`, message: 'is required' }));
}

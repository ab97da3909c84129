import { RE2JS } from 're2js';
import { LINEAR_REGEXP_MODULE } from './standalone-modules.js';

/** What ajv needs of a compiled pattern. */
export interface LinearPattern {
  test(input: string): boolean;
  toString(): string;
}

/**
 * An ECMAScript-syntax pattern compiled for RE2 (re2js): matching takes time linear in the input,
 * whatever the pattern. Throws for what RE2 cannot express (backreferences, lookahead).
 */
export function compileLinear(pattern: string): RE2JS {
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/**
 * JSON Schema `pattern` and `patternProperties` matched by RE2 (re2js): time linear in the input,
 * whatever the pattern, so an upstream's `^(a+)+$` cannot stall the event loop. ECMAScript syntax
 * is translated first; what RE2 cannot express (backreferences, lookahead) throws, and the schema
 * then cannot be compiled — its tool is unusable rather than checked partially.
 */
export const linearRegExp = Object.assign(
  (pattern: string): LinearPattern => {
    const compiled = compileLinear(pattern);
    return { test: (input: string) => compiled.test(input), toString: () => `/${pattern}/` };
  },
  // How standalone validators (compiled in a worker, see validatorFromCode) import it.
  { code: `require(${JSON.stringify(LINEAR_REGEXP_MODULE)}).linearRegExp` },
);

/**
 * A pattern the standalone validator's compile already accepted (see validatorFromCode): RE2
 * compiles it on its first test, so a schema of many patterns costs only those its arguments use
 * (compiling 49 patterns took ~10 ms of the event loop when the validator was made).
 */
export function acceptedLinearRegExp(pattern: string): LinearPattern {
  let compiled: RE2JS | undefined;
  return {
    test: (input: string) => (compiled ??= compileLinear(pattern)).test(input),
    toString: () => `/${pattern}/`,
  };
}

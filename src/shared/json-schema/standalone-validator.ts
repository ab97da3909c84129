import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { allDistinct } from './all-distinct.js';
import { acceptedLinearRegExp } from './linear-regexp.js';
import { ALL_DISTINCT_MODULE, LINEAR_REGEXP_MODULE } from './standalone-modules.js';

const requireFromHere = createRequire(import.meta.url);
const OWN_MODULES: Record<string, unknown> = {
  // The code was compiled from a schema whose patterns all compiled: each is compiled again on first use.
  [LINEAR_REGEXP_MODULE]: { linearRegExp: acceptedLinearRegExp },
  [ALL_DISTINCT_MODULE]: { allDistinct },
};
/** What ajv's generated code may import besides Toolplane's helpers: its runtime and the format checks. */
const ALLOWED_PACKAGES = [/^ajv\/dist\/runtime\/[a-z0-9_]+$/, /^ajv-formats\/dist\/formats$/];
const FILENAME = 'toolplane-schema-validator.js';

/**
 * Turns a validator compiled elsewhere (ajv standalone source, see SchemaCompiler.compileToCode)
 * into a function. The source may import only ajv's runtime, the format checks and Toolplane's own
 * helpers. With `cache` (V8's code cache of the same source, see validatorWithCodeCache) V8 skips
 * parsing and compiling it: for a schema at the limits (650 KB of source) those took 40–70 ms.
 */
export function validatorFromCode(code: string, cache?: Uint8Array): ValidateFunction {
  return evaluate(scriptOf(code, cache));
}

/**
 * The validator, run once, and V8's code cache of its source with every function compiled by then:
 * made where time does not count (the worker thread), for validatorFromCode.
 */
export function validatorWithCodeCache(code: string): { validate: ValidateFunction; cache: Uint8Array } {
  const script = scriptOf(code);
  const validate = evaluate(script);
  warmUp(validate);
  return { validate, cache: new Uint8Array(script.createCachedData()) };
}

/** Runs the validator once, so V8 compiles its function (a validator of undefined answers false at once). */
export function warmUp(validate: ValidateFunction): void {
  try {
    validate(undefined);
  } catch {
    // Only warming up: what matters is the answer for real arguments.
  }
}

function scriptOf(code: string, cache?: Uint8Array): Script {
  // Equivalent to what ajv itself does when compiling in place (it builds the validator with new Function).
  return new Script(`(function (require, module, exports) {${code}\n})`, { filename: FILENAME, ...(cache ? { cachedData: cache } : {}) });
}

function evaluate(script: Script): ValidateFunction {
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const load = (name: string): unknown => {
    if (Object.hasOwn(OWN_MODULES, name)) return OWN_MODULES[name];
    if (ALLOWED_PACKAGES.some((allowed) => allowed.test(name))) return requireFromHere(name);
    throw new Error(`a compiled schema asked for the module ${JSON.stringify(name)}`);
  };
  (script.runInThisContext() as (require: unknown, module: unknown, exports: unknown) => void)(load, module, module.exports);
  const validate = module.exports.default ?? module.exports;
  if (typeof validate !== 'function') throw new Error('a compiled schema did not export a validator');
  return validate as ValidateFunction;
}

import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { allDistinct } from './all-distinct.js';
import { linearRegExp } from './linear-regexp.js';
import { ALL_DISTINCT_MODULE, LINEAR_REGEXP_MODULE } from './standalone-modules.js';

const requireFromHere = createRequire(import.meta.url);
const OWN_MODULES: Record<string, unknown> = {
  [LINEAR_REGEXP_MODULE]: { linearRegExp },
  [ALL_DISTINCT_MODULE]: { allDistinct },
};
/** What ajv's generated code may import besides Toolplane's helpers: its runtime and the format checks. */
const ALLOWED_PACKAGES = [/^ajv\/dist\/runtime\/[a-z0-9_]+$/, /^ajv-formats\/dist\/formats$/];

/**
 * Turns a validator compiled elsewhere (ajv standalone source, see SchemaCompiler.compileToCode)
 * into a function: evaluating the source costs a few milliseconds where compiling the schema cost
 * tens. The source may import only ajv's runtime, the format checks and Toolplane's own helpers.
 */
export function validatorFromCode(code: string): ValidateFunction {
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const load = (name: string): unknown => {
    if (Object.hasOwn(OWN_MODULES, name)) return OWN_MODULES[name];
    if (ALLOWED_PACKAGES.some((allowed) => allowed.test(name))) return requireFromHere(name);
    throw new Error(`a compiled schema asked for the module ${JSON.stringify(name)}`);
  };
  // Equivalent to what ajv itself does when compiling in place (it too builds the validator with new Function).
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
  const validate = module.exports.default ?? module.exports;
  if (typeof validate !== 'function') throw new Error('a compiled schema did not export a validator');
  return validate as ValidateFunction;
}

/**
 * Jest's transform of the project's TypeScript: SWC, file by file, with what tsconfig.json asks of
 * the output (its target, legacy decorators with their design-time metadata, class fields defined as
 * ES2022 does). ES modules where Jest loads the file as one (`*.ts` runs natively as ESM), CommonJS
 * where it requires it (the e2e global setup). Types are checked by `npm run typecheck`, and the
 * build (`tsc`) is what runs in production and in most e2e suites.
 *
 * TypeScript's own `transpileModule` takes about 16 times as long: with it, a fresh checkout (as in
 * CI) spent 10–15 s of the unit project's time compiling.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const swc = require('@swc/core');

const TSCONFIG = join(__dirname, '..', '..', 'tsconfig.json');

function optionsFor(esm, filename) {
  return {
    filename,
    sourceMaps: true,
    inlineSourcesContent: true,
    swcrc: false,
    configFile: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: esm ? 'es6' : 'commonjs' },
  };
}

/** What changes every file's output: the compiler, tsconfig.json and this transform. */
const VERSION = createHash('sha256').update(swc.version).update(readFileSync(TSCONFIG)).update(readFileSync(__filename)).digest('hex');

module.exports = {
  process(source, path, options) {
    const { code, map } = swc.transformSync(source, optionsFor(options.supportsStaticESM, path));
    return { code, map };
  },

  getCacheKey(source, path, options) {
    return createHash('sha256')
      .update(VERSION)
      .update(options.supportsStaticESM ? 'esm' : 'cjs')
      .update(options.instrument ? 'instrumented' : '')
      .update(options.configString)
      .update(path)
      .update(source)
      .digest('hex');
  },
};

/**
 * Jest's transform of the project's TypeScript: SWC, file by file, with what tsconfig.json asks of
 * the output, read from it (its target, legacy decorators with their design-time metadata, class
 * fields as the target defines them). ES modules where Jest loads the file as one (`*.ts` runs
 * natively as ESM), CommonJS where it requires it (the e2e global setup). Types are checked by
 * `npm run typecheck`, and the build (`tsc`) is what runs in production and in most e2e suites.
 *
 * TypeScript's own `transpileModule` takes about 16 times as long: with it, a fresh checkout (as in
 * CI) spent 10–15 s of the unit project's time compiling.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const swc = require('@swc/core');

const TSCONFIG = join(__dirname, '..', '..', 'tsconfig.json');
const COMPILER = JSON.parse(readFileSync(TSCONFIG, 'utf8')).compilerOptions;
const TARGET = COMPILER.target.toLowerCase();
/** TypeScript's default: ES2022 class fields from an ES2022 target on. */
const DEFINE_CLASS_FIELDS = COMPILER.useDefineForClassFields ?? !/^es(3|5|20(15|16|17|18|19|20|21))$/.test(TARGET);

function optionsFor(esm, filename) {
  return {
    filename,
    sourceMaps: true,
    inlineSourcesContent: true,
    swcrc: false,
    configFile: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: COMPILER.experimentalDecorators === true, decoratorMetadata: COMPILER.emitDecoratorMetadata === true, useDefineForClassFields: DEFINE_CLASS_FIELDS },
      target: TARGET,
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

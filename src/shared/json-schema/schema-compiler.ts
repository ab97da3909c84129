import { Ajv, _, type KeywordCxt, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { allDistinct } from './all-distinct.js';
import { linearRegExp } from './linear-regexp.js';
import { schemaLimitBreach, type SchemaLimits } from './schema-limits.js';
import { ALL_DISTINCT_MODULE } from './standalone-modules.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;
const standaloneCode = (standaloneModule as unknown as { default: (ajv: Ajv | Ajv2020, validate: ValidateFunction) => string }).default;

export type CompiledSchema = { usable: true; validate: ValidateFunction } | { usable: false; reason: string };
/**
 * A compiled schema as JavaScript source (ajv's standalone code), to be turned into a function
 * elsewhere; `cache` is V8's code cache of it (see validatorWithCodeCache).
 */
export type CompiledSchemaCode = { usable: true; code: string; cache?: Uint8Array } | { usable: false; reason: string };

/**
 * Compiles an upstream's inputSchema for argument checks, or says why it cannot be used: over a
 * limit, refused by ajv (a `$ref` that loops or points nowhere, a keyword with a wrong value), or a
 * pattern a linear-time engine cannot run. Draft-07 (and earlier) or 2020-12, chosen by `$schema`;
 * upstream schemas are taken as they are otherwise (non-strict).
 *
 * Compiling costs time in proportion to the schema (about 50–130 ms for 1,000 properties), so
 * Toolplane compiles in a worker thread (see OffThreadSchemaCompiler) with `standalone: true`,
 * which also yields the validator's source code; `compile` in place serves runs without the worker.
 */
export class SchemaCompiler {
  private readonly draft07: Ajv;
  private readonly draft2020: Ajv2020;

  constructor(
    private readonly limits: SchemaLimits,
    { standalone = false }: { standalone?: boolean } = {},
  ) {
    const options = { allErrors: true, strict: false, validateFormats: true, code: { regExp: linearRegExp, source: standalone } } as const;
    this.draft07 = new Ajv(options);
    this.draft2020 = new Ajv2020(options);
    for (const ajv of [this.draft07, this.draft2020]) {
      addFormats(ajv);
      // ajv compares every pair of items (quadratic: 60,000 objects took minutes); by canonical JSON in a set it is linear.
      ajv.removeKeyword('uniqueItems');
      ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', code: uniqueItemsCode, error: { message: 'must NOT have duplicate items' } });
    }
  }

  /** Within the limits? Cheap, bounded by the limits themselves: for discovery, before storing a schema. */
  breach(schema: unknown): string | undefined {
    return schemaLimitBreach(schema, this.limits);
  }

  compile(schema: Record<string, unknown>): CompiledSchema {
    const breach = this.breach(schema);
    if (breach) return { usable: false, reason: breach };
    try {
      return { usable: true, validate: this.compileWithAjv(schema).validate };
    } catch (error) {
      return { usable: false, reason: compileFailure(error) };
    }
  }

  /** Like compile, answering the validator's standalone source (needs `standalone: true`). */
  compileToCode(schema: Record<string, unknown>): CompiledSchemaCode {
    const breach = this.breach(schema);
    if (breach) return { usable: false, reason: breach };
    try {
      const { ajv, validate } = this.compileWithAjv(schema);
      return { usable: true, code: standaloneCode(ajv, validate) };
    } catch (error) {
      return { usable: false, reason: compileFailure(error) };
    }
  }

  private compileWithAjv(schema: Record<string, unknown>): { ajv: Ajv | Ajv2020; validate: ValidateFunction } {
    const is2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
    const ajv = is2020 ? this.draft2020 : this.draft07;
    // Compiled without its $id, so two tools (or two versions of one) never collide in ajv's registry.
    const validate = ajv.compile({ ...schema, $id: undefined });
    // ajv keeps every compiled schema in a cache keyed by the schema object; this one is never looked up again.
    ajv.removeSchema(validate.schema as object);
    return { ajv, validate };
  }
}

/** `uniqueItems: true` as a call to allDistinct, which standalone code imports by name. */
function uniqueItemsCode(cxt: KeywordCxt): void {
  if (cxt.schema !== true) return;
  const distinct = cxt.gen.scopeValue('func', { ref: allDistinct, code: _`require(${ALL_DISTINCT_MODULE}).allDistinct` });
  cxt.fail(_`!${distinct}(${cxt.data})`);
}

export function compileFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `its inputSchema cannot be compiled: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { canonicalJson } from '../../modules/inventory/domain/canonical-json.js';
import { linearRegExp } from './linear-regexp.js';
import { schemaLimitBreach, type SchemaLimits } from './schema-limits.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

export type CompiledSchema = { usable: true; validate: ValidateFunction } | { usable: false; reason: string };

/**
 * Compiles an upstream's inputSchema for argument checks, or says why it cannot be used: over a
 * limit, refused by ajv (a `$ref` that loops or points nowhere, a keyword with a wrong value), or a
 * pattern a linear-time engine cannot run. Draft-07 (and earlier) or 2020-12, chosen by `$schema`;
 * upstream schemas are taken as they are otherwise (non-strict).
 */
export class SchemaCompiler {
  private readonly draft07 = new Ajv({ allErrors: true, strict: false, validateFormats: true, code: { regExp: linearRegExp } });
  private readonly draft2020 = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, code: { regExp: linearRegExp } });

  constructor(private readonly limits: SchemaLimits) {
    for (const ajv of [this.draft07, this.draft2020]) {
      addFormats(ajv);
      // ajv compares every pair of items (quadratic: 60,000 objects took minutes); by canonical JSON in a set it is linear.
      ajv.removeKeyword('uniqueItems');
      ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: false, validate: (unique: boolean, items: unknown[]) => !unique || allDistinct(items) });
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
      const is2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
      const ajv = is2020 ? this.draft2020 : this.draft07;
      // Compiled without its $id, so two tools (or two versions of one) never collide in ajv's registry.
      const validate = ajv.compile({ ...schema, $id: undefined });
      // ajv keeps every compiled schema in a cache keyed by the schema object; this one is never looked up again.
      ajv.removeSchema(validate.schema as object);
      return { usable: true, validate };
    } catch (error) {
      return { usable: false, reason: `its inputSchema cannot be compiled: ${messageOf(error)}` };
    }
  }
}

/** JSON equality, as uniqueItems means it: key order aside, 1 and 1.0 the same. */
function allDistinct(items: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

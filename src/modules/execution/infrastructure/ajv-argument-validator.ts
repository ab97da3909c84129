import { Logger } from '@nestjs/common';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ProblemDetail } from '../../../shared/domain-error.js';
import { ArgumentValidator } from '../domain/argument-validator.port.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;
const MAX_COMPILED = 5000;
const MAX_PROBLEMS = 50;

type Compiled = ValidateFunction | 'uncompilable';

/**
 * ajv for draft-07 (and earlier) and 2020-12 schemas, chosen by `$schema`. Upstream schemas
 * are taken as they are (non-strict); one that cannot be compiled is logged once and not
 * enforced — the upstream still validates its own input.
 */
export class AjvArgumentValidator extends ArgumentValidator {
  private readonly logger = new Logger('arguments');
  private readonly draft07 = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  private readonly draft2020 = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  private readonly compiled = new Map<string, Compiled>();

  constructor() {
    super();
    addFormats(this.draft07);
    addFormats(this.draft2020);
  }

  validate(definitionHash: string, schema: Record<string, unknown>, args: unknown): ProblemDetail[] {
    const validate = this.compile(definitionHash, schema);
    if (validate === 'uncompilable' || validate(args)) return [];
    return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(toProblem);
  }

  private compile(hash: string, schema: Record<string, unknown>): Compiled {
    const hit = this.compiled.get(hash);
    if (hit) return hit;
    let result: Compiled;
    try {
      const is2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
      // Compiled under the definition hash, so a changed schema never reuses a stale validator.
      result = (is2020 ? this.draft2020 : this.draft07).compile({ ...schema, $id: undefined });
    } catch (error) {
      this.logger.warn(`inputSchema of definition ${hash.slice(0, 12)} cannot be compiled, arguments go unchecked: ${(error as Error).message}`);
      result = 'uncompilable';
    }
    if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(hash, result);
    return result;
  }
}

function toProblem(error: ErrorObject): ProblemDetail {
  const base = 'arguments' + pointerToPath(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return { path: `${base}.${(error.params as { missingProperty: string }).missingProperty}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${base}.${(error.params as { additionalProperty: string }).additionalProperty}`, message: 'is not allowed by the schema' };
    default:
      return { path: base, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** `/items/0/name` → `.items[0].name` */
function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join('');
}

import { schemaProblems } from '../../../shared/json-schema/schema-problems.js';
import type { SchemaLimits } from '../../../shared/json-schema/schema-limits.js';
import { OffThreadSchemaCompiler } from '../../../shared/off-thread/off-thread-schema-compiler.js';
import { SchemaCheck, SchemaChecks } from '../domain/schema-checks.port.js';

const MAX_PROBLEMS = 50;

/** SchemaChecks with the compiler of upstreams' input schemas: ajv, compiled on the worker thread, within the schema limits. */
export class AjvSchemaChecks extends SchemaChecks {
  private readonly compiler: OffThreadSchemaCompiler;

  constructor(limits: SchemaLimits, compiler = new OffThreadSchemaCompiler(limits)) {
    super();
    this.compiler = compiler;
  }

  async compile(schema: Record<string, unknown>): Promise<SchemaCheck> {
    const compiled = await this.compiler.compile(schema);
    if (!compiled.usable) return { usable: false, reason: compiled.reason };
    const { validate } = compiled;
    return { usable: true, problems: (value, base) => (validate(value) ? [] : schemaProblems(validate.errors, base, MAX_PROBLEMS)) };
  }
}

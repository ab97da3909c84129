import type { CompiledSchema } from '../../../shared/json-schema/schema-compiler.js';
import { schemaProblems } from '../../../shared/json-schema/schema-problems.js';
import type { SchemaLimits } from '../../../shared/json-schema/schema-limits.js';
import { OffThreadSchemaCompiler } from '../../../shared/off-thread/off-thread-schema-compiler.js';
import { ArgumentCheck, ArgumentValidator } from '../domain/argument-validator.port.js';

const MAX_COMPILED = 5000;
const MAX_PROBLEMS = 50;

/**
 * Checks arguments with ajv (draft-07 or 2020-12, linear-time patterns, bounded schemas). A schema
 * that cannot be compiled or is over a limit makes its tool unusable: calls are refused, never
 * checked partially or waved through.
 */
export class AjvArgumentValidator extends ArgumentValidator {
  private readonly compiler: OffThreadSchemaCompiler;
  private readonly compiled = new Map<string, CompiledSchema>();
  /** Compilations under way, so concurrent first calls of a tool share one. */
  private readonly compiling = new Map<string, Promise<CompiledSchema>>();

  constructor(limits: SchemaLimits, compiler = new OffThreadSchemaCompiler(limits)) {
    super();
    this.compiler = compiler;
  }

  validate(definitionHash: string, schema: Record<string, unknown>, args: unknown): ArgumentCheck | Promise<ArgumentCheck> {
    const hit = this.compiled.get(definitionHash);
    if (hit) return check(hit, args);
    return this.compile(definitionHash, schema).then(
      (compiled) => check(compiled, args),
      (error: unknown) => ({ unusable: `its inputSchema could not be compiled: ${error instanceof Error ? error.message : String(error)}` }),
    );
  }

  private compile(hash: string, schema: Record<string, unknown>): Promise<CompiledSchema> {
    let pending = this.compiling.get(hash);
    if (pending) return pending;
    pending = this.compiler.compile(schema).then((result) => {
      // Cached under the definition hash, so a changed schema never reuses a stale validator.
      if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(hash, result);
      return result;
    });
    this.compiling.set(hash, pending);
    // A failure of the worker thread is not cached: the next call compiles again.
    const forget = () => this.compiling.delete(hash);
    pending.then(forget, forget);
    return pending;
  }
}

function check(compiled: CompiledSchema, args: unknown): ArgumentCheck {
  if (!compiled.usable) return { unusable: compiled.reason };
  if (compiled.validate(args)) return { problems: [] };
  return { problems: schemaProblems(compiled.validate.errors, 'arguments', MAX_PROBLEMS) };
}

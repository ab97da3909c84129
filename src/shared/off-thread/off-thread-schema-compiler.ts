import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { compileFailure, SchemaCompiler, type CompiledSchema } from '../json-schema/schema-compiler.js';
import type { SchemaLimits } from '../json-schema/schema-limits.js';
import { validatorFromCode, warmUp } from '../json-schema/standalone-validator.js';
import { offThread, type OffThreadWorker } from './off-thread-worker.js';

export type SchemaVerdict = { usable: true } | { usable: false; reason: string };

/** Verdicts remembered (most recently used kept): a refresh of an unchanged inventory compiles nothing. */
const REMEMBERED_VERDICTS = 20_000;

/**
 * SchemaCompiler with the compiling done on the worker thread: ajv needs 50–130 ms for a schema of
 * 1,000 properties, all of it on the event loop when done in place. The worker answers the
 * validator's source with V8's code cache of it, which become a function here in a few
 * milliseconds. Without the worker (runs of the TypeScript sources) it compiles in place.
 */
export class OffThreadSchemaCompiler {
  private readonly inPlace: SchemaCompiler;
  /** Verdicts by digest of the schema's JSON text; the limits are this compiler's, so they hold for its life. */
  private readonly verdicts = new Map<string, SchemaVerdict>();

  constructor(
    private readonly limits: SchemaLimits,
    private readonly worker: OffThreadWorker = offThread,
    private readonly rememberedVerdicts = REMEMBERED_VERDICTS,
  ) {
    this.inPlace = new SchemaCompiler(limits);
  }

  /** Within the limits? Cheap, bounded by the limits themselves. */
  breach(schema: unknown): string | undefined {
    return this.inPlace.breach(schema);
  }

  /** Whether the schema can be used (within the limits and compilable), without keeping a validator. */
  async verdict(schema: Record<string, unknown>): Promise<SchemaVerdict> {
    const breach = this.breach(schema);
    if (breach) return { usable: false, reason: breach };
    // Within the limits, so bounded: serializing it costs far less than compiling it again.
    const key = createHash('sha256').update(JSON.stringify(schema)).digest('base64');
    const known = this.verdicts.get(key);
    if (known) {
      this.verdicts.delete(key);
      this.verdicts.set(key, known);
      return known;
    }
    const verdict = await this.compileVerdict(schema);
    this.verdicts.set(key, verdict);
    if (this.verdicts.size > this.rememberedVerdicts) this.verdicts.delete(this.verdicts.keys().next().value!);
    return verdict;
  }

  private async compileVerdict(schema: Record<string, unknown>): Promise<SchemaVerdict> {
    const compiled = this.worker.available ? await this.worker.run({ kind: 'compile', schema, limits: this.limits, code: false }) : this.inPlace.compile(schema);
    return compiled.usable ? { usable: true } : { usable: false, reason: compiled.reason };
  }

  /** A validator for the schema, or why there is none. Rejects only when the worker thread failed. */
  async compile(schema: Record<string, unknown>): Promise<CompiledSchema> {
    const breach = this.breach(schema);
    if (breach) return { usable: false, reason: breach };
    if (!this.worker.available) return this.inPlace.compile(schema);
    const compiled = await this.worker.run({ kind: 'compile', schema, limits: this.limits, code: true });
    if (!compiled.usable) return compiled;
    // Evaluating the source (V8 takes its compiled code from the cache) and the first run each get
    // a turn of the event loop of their own.
    await nextTurn();
    let validate: ValidateFunction;
    try {
      validate = validatorFromCode(compiled.code, compiled.cache);
    } catch (error) {
      return { usable: false, reason: compileFailure(error) };
    }
    await nextTurn();
    warmUp(validate);
    await nextTurn();
    return { usable: true, validate };
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

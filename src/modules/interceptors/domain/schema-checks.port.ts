import type { ProblemDetail } from '../../../shared/domain-error.js';

/** A compiled JSON Schema: the problems of a value (none when it fits), at paths under `base`. */
export type SchemaCheck = { usable: true; problems(value: unknown, base: string): ProblemDetail[] } | { usable: false; reason: string };

/**
 * Port: JSON Schemas compiled for checking values, as upstreams' input schemas are (draft-07 or
 * 2020-12, linear-time patterns, bounded). Compiling may take a while (off the event loop); a
 * rejection means the compiler failed, not the schema.
 */
export abstract class SchemaChecks {
  abstract compile(schema: Record<string, unknown>): Promise<SchemaCheck>;
}

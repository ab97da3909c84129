import type { CompiledSchemaCode } from '../json-schema/schema-compiler.js';
import type { SchemaLimits } from '../json-schema/schema-limits.js';
import type { YamlText } from '../yaml-text.js';

/** Parse a large JSON message; a `tools/list` result is trimmed (see trimOversizedSchemas) before it comes back. */
export interface ParseJob {
  kind: 'parse';
  bytes: Uint8Array;
  schemaLimits?: SchemaLimits;
  /** A message holding more values is refused: a response becomes a JSON-RPC error for its request. */
  maxValues?: number;
  /** Answer the (trimmed) message as JSON text instead of a value. */
  asText?: boolean;
}

/** Compile an inputSchema: whether it can be used, and with `code`, the validator's standalone source. */
export interface CompileJob {
  kind: 'compile';
  schema: Record<string, unknown>;
  limits: SchemaLimits;
  code: boolean;
}

/** Parse a YAML configuration file (see parseYamlText). */
export interface YamlJob {
  kind: 'yaml';
  text: string;
}

/** Canonical JSON with stored strings of each value (see canonicalStoredJson): a large execution record's columns. */
export interface CanonicalJob {
  kind: 'canonical';
  values: unknown[];
}

export type Job = ParseJob | CompileJob | YamlJob | CanonicalJob;
export type JobResult<J extends Job> = J extends ParseJob
  ? unknown
  : J extends YamlJob
    ? YamlText
    : J extends CanonicalJob
      ? (string | undefined)[]
      : CompiledSchemaCode;

export type Envelope = { id: number; job: Job };
export type Reply = { id: number; value: unknown } | { id: number; error: string };

import { isRecord } from '../is-record.js';
import { schemaLimitBreach, type SchemaLimits } from './schema-limits.js';

/** Marks a schema replaced before the SDK read it; its value is the reason. */
export const TRIMMED_SCHEMA_KEY = 'x-toolplane-trimmed';

/**
 * Replaces, in a `tools/list` result as it arrives, every inputSchema and outputSchema over the
 * schema limits by a marked stub, before the SDK validates the result: its validation walks every
 * schema recursively (a 3.4 MB listing held the event loop ~150 ms; a schema nested a few thousand
 * levels overflowed the stack and lost the whole listing). The check stops at the first limit a
 * schema exceeds, so it costs at most about the byte limit per schema.
 */
export function trimOversizedSchemas(result: Record<string, unknown>, limits: SchemaLimits): void {
  const tools = result.tools;
  if (!Array.isArray(tools)) return;
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[field];
      if (schema === undefined) continue;
      const breach = schemaLimitBreach(schema, limits);
      if (breach) tool[field] = { type: 'object', [TRIMMED_SCHEMA_KEY]: breach.replace('its inputSchema', `its ${field}`) };
    }
  }
}

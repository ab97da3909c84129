/** How much of an upstream's JSON Schema Toolplane agrees to compile and check arguments against. */
export interface SchemaLimits {
  /** Size of the schema as JSON text, in bytes (approximately: keys, strings and punctuation). */
  maxBytes: number;
  /** Nesting of objects and arrays. */
  maxDepth: number;
  /** `pattern` keywords plus `patternProperties` entries. */
  maxPatterns: number;
  /** Objects in the schema (each a possible subschema). */
  maxObjects: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { maxBytes: 128 * 1024, maxDepth: 32, maxPatterns: 50, maxObjects: 1000 };

/**
 * The first limit a schema exceeds, as a reason a person can act on; undefined when it is within
 * all of them. One pass without recursion that stops at the first breach, so a hostile schema
 * costs at most about `maxBytes` of work whatever its real size.
 */
export function schemaLimitBreach(schema: unknown, limits: SchemaLimits): string | undefined {
  let bytes = 0;
  let patterns = 0;
  let objects = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: schema, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') {
      bytes += value.length + 2;
    } else if (value === null || typeof value !== 'object') {
      bytes += 5;
    } else {
      if (depth > limits.maxDepth) return `its inputSchema nests deeper than ${limits.maxDepth} levels`;
      bytes += 2;
      if (Array.isArray(value)) {
        for (const item of value) {
          bytes += 1;
          stack.push({ value: item, depth: depth + 1 });
        }
      } else {
        objects += 1;
        if (objects > limits.maxObjects) return `its inputSchema has more than ${limits.maxObjects} objects`;
        const record = value as Record<string, unknown>;
        if (typeof record.pattern === 'string') patterns += 1;
        const patternProperties = record.patternProperties;
        if (patternProperties !== null && typeof patternProperties === 'object' && !Array.isArray(patternProperties)) {
          patterns += Object.keys(patternProperties).length;
        }
        if (patterns > limits.maxPatterns) return `its inputSchema has more than ${limits.maxPatterns} patterns`;
        for (const key of Object.keys(record)) {
          bytes += key.length + 4;
          stack.push({ value: record[key], depth: depth + 1 });
        }
      }
    }
    if (bytes > limits.maxBytes) return `its inputSchema is larger than ${limits.maxBytes} bytes`;
  }
  return undefined;
}

export const REDACTED = '[redacted]';

/** Property names that carry credentials whatever the schema says. */
const SENSITIVE_NAME = /(token|secret|passw(or)?d|api[-_ ]?key|apikey|authorization|credential|private[-_ ]?key|cookie)/i;

/**
 * A copy of the arguments safe to store: values whose schema property is `writeOnly` or
 * `format: password`, or whose name says credential, are replaced. Walks nested objects and
 * arrays, following `properties`, `items` and `additionalProperties` where the schema has them.
 */
export function redactArguments(value: unknown, schema: unknown, depth = 0): unknown {
  // Arguments nest at most 64 levels (checked before any call); this bound is for anything else.
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) {
    const items = isObject(schema) ? schema.items : undefined;
    return value.map((item) => redactArguments(item, items, depth + 1));
  }
  if (!isObject(value)) return value;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const additional = isObject(schema) ? schema.additionalProperties : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : additional;
    const kept = SENSITIVE_NAME.test(key) || isSecretSchema(propertySchema) ? REDACTED : redactArguments(inner, propertySchema, depth + 1);
    // An own property whatever the key (`__proto__` included), exactly as the caller sent it.
    Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isSecretSchema(schema: unknown): boolean {
  return isObject(schema) && (schema.writeOnly === true || schema.format === 'password');
}

function isObject(value: unknown): value is Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON Schema objects are read loosely
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const REDACTED = '[redacted]';

/** Property names that carry credentials whatever the schema says. */
const SENSITIVE_NAME = /(token|secret|passw(or)?d|api[-_ ]?key|apikey|authorization|credential|private[-_ ]?key|cookie)/i;

/**
 * The arguments as they may be stored: values whose schema property is `writeOnly` or
 * `format: password`, or whose name says credential, are replaced. Walks nested objects and
 * arrays, following `properties`, `items` and `additionalProperties` where the schema has them.
 * The arguments are not changed: a copy is made only along the paths where something was replaced,
 * and arguments with nothing to redact come back as they are.
 */
export function redactArguments(value: unknown, schema: unknown, depth = 0): unknown {
  // Arguments nest at most 64 levels (checked before any call); this bound is for anything else.
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) {
    const items = isObject(schema) ? schema.items : undefined;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const kept = redactArguments(value[i], items, depth + 1);
      if (kept === value[i]) continue;
      out ??= [...value];
      out[i] = kept;
    }
    return out ?? value;
  }
  if (!isObject(value)) return value;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const additional = isObject(schema) ? schema.additionalProperties : undefined;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const inner = value[key];
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : additional;
    const kept = isSensitiveName(key) || isSecretSchema(propertySchema) ? REDACTED : redactArguments(inner, propertySchema, depth + 1);
    if (kept === inner) continue;
    out ??= ownCopy(value);
    defineOwn(out, key, kept);
  }
  return out ?? value;
}

/** Names seen, and whether they say credential: the keys of a list's objects repeat. */
const sensitiveNames = new Map<string, boolean>();
const MAX_REMEMBERED_NAMES = 4096;

function isSensitiveName(key: string): boolean {
  let sensitive = sensitiveNames.get(key);
  if (sensitive === undefined) {
    sensitive = SENSITIVE_NAME.test(key);
    if (key.length <= 64) {
      if (sensitiveNames.size >= MAX_REMEMBERED_NAMES) sensitiveNames.clear();
      sensitiveNames.set(key, sensitive);
    }
  }
  return sensitive;
}

/** A shallow copy with every key an own property, exactly as the caller sent it (`__proto__` included). */
function ownCopy(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) defineOwn(copy, key, value[key]);
  return copy;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isSecretSchema(schema: unknown): boolean {
  return isObject(schema) && (schema.writeOnly === true || schema.format === 'password');
}

function isObject(value: unknown): value is Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON Schema objects are read loosely
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

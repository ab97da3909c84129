/**
 * Tool input schemas as LLM function-calling APIs accept them.
 *
 * Both OpenAI and Anthropic want an object schema at the top level (no anyOf/oneOf/allOf/not
 * there). OpenAI's strict mode (Structured Outputs) accepts only a subset of JSON Schema:
 * every object closed (`additionalProperties: false`) with all its properties required, only
 * some keywords, and limits on size and nesting. `toStrictSchema` converts what can be
 * converted and names the first obstacle otherwise.
 *
 * Dropping a constraint keyword (minLength, uniqueItems, not, …) is safe here: Toolplane
 * validates every call against the tool's original schema, so relaxing what the model is told
 * can only lead to an `invalid_arguments` answer, never to a call the tool did not allow.
 * What strict mode cannot express at all (free-form maps, tuples, values of any type,
 * external references) makes the tool not convertible.
 */

export type JsonSchema = Record<string, unknown>;

export type SchemaConversion = { ok: true; schema: JsonSchema } | { ok: false; reason: string };

/** The limits OpenAI documents for strict schemas. */
export const STRICT_LIMITS = {
  maxDepth: 10,
  maxProperties: 5000,
  maxEnumValues: 1000,
  /** Property names, definition names, enum and const values, all together. */
  maxTotalStringLength: 120_000,
  /** A single enum of more than 250 string values may total at most 15,000 characters. */
  largeEnumValues: 250,
  largeEnumStringLength: 15_000,
};

/** String formats strict mode supports; any other format is dropped. */
export const STRICT_STRING_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const TOP_LEVEL_REFUSED = ['anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const', '$ref'];
/** Keywords that only describe; they may sit beside `$ref` or `anyOf` and are dropped or kept without harm. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', '$comment', 'deprecated', 'readOnly', 'writeOnly', '$schema', '$id']);
const NUMBER_CONSTRAINTS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
const ARRAY_CONSTRAINTS = ['minItems', 'maxItems'] as const;

/**
 * Non-strict parameters (OpenAI without strict, Anthropic): the schema as it is, with an object
 * type and a `properties` member at the top (OpenAI refuses an object schema without one).
 */
export function toFunctionParameters(input: unknown): SchemaConversion {
  if (!isRecord(input)) return { ok: false, reason: '$: the input schema is not a JSON object' };
  const refused = TOP_LEVEL_REFUSED.find((key) => key in input);
  if (refused) return { ok: false, reason: `$: ${refused} at the top level is not accepted; the input schema must be a plain object schema` };
  if (input.type !== undefined && input.type !== 'object') {
    return { ok: false, reason: `$: the input schema must have type "object", not ${JSON.stringify(input.type)}` };
  }
  const { $schema: _ignored, ...rest } = input;
  const schema: JsonSchema = { type: 'object', ...rest };
  if (!isRecord(schema.properties)) schema.properties = {};
  return { ok: true, schema };
}

/** The schema converted for OpenAI strict mode, or why it cannot be. */
export function toStrictSchema(input: unknown): SchemaConversion {
  try {
    return { ok: true, schema: new StrictConverter(input).run() };
  } catch (error) {
    if (error instanceof NotConvertible) return { ok: false, reason: `${error.path}: ${error.message}` };
    throw error;
  }
}

class NotConvertible extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function fail(path: string, message: string): never {
  throw new NotConvertible(path, message);
}

interface Definition {
  container: '$defs' | 'definitions';
  name: string;
  schema: unknown;
  /** The name under the output's `$defs`, once referenced. */
  outputName?: string;
}

/**
 * Schema nodes a strict conversion may visit. Inlining `allOf` references can double the work at
 * each level (20 levels of `allOf: [$ref d, $ref d]` took 4 s); past this a tool is not convertible.
 */
export const MAX_CONVERSION_STEPS = 10_000;

class StrictConverter {
  private readonly definitions = new Map<string, Definition>();
  private steps = 0;
  private readonly queue: Definition[] = [];
  private readonly outputNames = new Set<string>();
  private properties = 0;
  private enumValues = 0;
  private stringLength = 0;

  constructor(private readonly root: unknown) {}

  run(): JsonSchema {
    const root = this.root;
    if (!isRecord(root)) fail('$', 'the input schema is not a JSON object');
    for (const container of ['definitions', '$defs'] as const) {
      const defs = root[container];
      if (defs === undefined) continue;
      if (!isRecord(defs)) fail(`$.${container}`, 'is not an object of schemas');
      for (const [name, schema] of Object.entries(defs)) this.definitions.set(`#/${container}/${escapePointer(name)}`, { container, name, schema });
    }
    const top = 'allOf' in root ? this.mergeAllOf(root, '$') : root;
    const refused = TOP_LEVEL_REFUSED.find((key) => key in top);
    if (refused) fail('$', `${refused} at the top level is not supported; the input schema must be a plain object schema`);
    const type = top.type ?? (isRecord(top.properties) ? 'object' : undefined);
    if (type !== 'object') fail('$', `the input schema must have type "object", not ${JSON.stringify(type ?? null)}`);

    const schema = this.convert({ ...top, type: 'object' }, '$', 1, true);
    const defs: JsonSchema = {};
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      defs[next.outputName!] = this.convert(next.schema, `$.${next.container}.${next.name}`, 1, false);
    }
    if (Object.keys(defs).length > 0) schema.$defs = defs;
    this.checkTotals();
    return schema;
  }

  private convert(node: unknown, path: string, depth: number, isRoot = false): JsonSchema {
    this.step(path);
    if (node === true) fail(path, 'accepts any value; strict mode needs a type');
    if (node === false) fail(path, 'accepts no value');
    if (!isRecord(node)) fail(path, 'is not a schema');
    let schema = node;
    if ('allOf' in schema) schema = this.mergeAllOf(schema, path);
    if ('$ref' in schema) return this.convertRef(schema, path, depth);
    if ('anyOf' in schema || 'oneOf' in schema) return this.convertUnion(schema, path, depth);

    const types = typesOf(schema, path);
    const out: JsonSchema = { type: types.length === 1 ? types[0] : types };
    if (typeof schema.title === 'string') out.title = schema.title;
    if (typeof schema.description === 'string') out.description = schema.description;

    const values = 'const' in schema ? [schema.const] : schema.enum;
    if (values !== undefined) out.enum = this.enumValuesOf(values, path);

    if (types.includes('object')) this.convertObject(schema, out, path, depth, isRoot);
    if (types.includes('array')) this.convertArray(schema, out, path, depth);
    if (types.includes('string')) {
      if (typeof schema.pattern === 'string' && isStrictPattern(schema.pattern)) out.pattern = schema.pattern;
      if (typeof schema.format === 'string' && STRICT_STRING_FORMATS.has(schema.format)) out.format = schema.format;
    }
    if (types.includes('number') || types.includes('integer')) copyNumberConstraints(schema, out);
    if (schema.nullable === true) return nullable(out); // OpenAPI 3.0 style
    return out;
  }

  private convertObject(schema: JsonSchema, out: JsonSchema, path: string, depth: number, isRoot: boolean): void {
    checkDepth(path, depth);
    const properties = schema.properties;
    if (properties !== undefined && !isRecord(properties)) fail(`${path}.properties`, 'is not an object of schemas');
    const names = properties ? Object.keys(properties) : [];
    const extra = schema.additionalProperties;
    if (names.length === 0) {
      if (isRecord(schema.patternProperties)) fail(path, 'is a map (patternProperties); strict mode allows only declared properties');
      if (extra !== undefined && extra !== false) fail(path, 'is a map (additionalProperties); strict mode allows only declared properties');
      // `{type: "object"}` at the top means a tool without arguments; deeper, it means any object.
      if (properties === undefined && !isRoot) fail(path, 'is an object of any shape; strict mode allows only declared properties');
    }
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const converted: JsonSchema = {};
    for (const name of names) {
      this.properties += 1;
      this.stringLength += name.length;
      const child = this.convert(properties![name], `${path}.properties.${name}`, depth + 1);
      converted[name] = required.has(name) ? child : nullable(child);
    }
    out.properties = converted;
    out.required = names;
    out.additionalProperties = false;
  }

  private convertArray(schema: JsonSchema, out: JsonSchema, path: string, depth: number): void {
    checkDepth(path, depth);
    if (Array.isArray(schema.items) || 'prefixItems' in schema) fail(path, 'is a tuple; strict mode supports only arrays of one item schema');
    if (schema.items === undefined) fail(path, 'is an array of any items; strict mode needs an item schema');
    out.items = this.convert(schema.items, `${path}.items`, depth + 1);
    for (const key of ARRAY_CONSTRAINTS) if (isNonNegativeInteger(schema[key])) out[key] = schema[key];
  }

  private convertUnion(schema: JsonSchema, path: string, depth: number): JsonSchema {
    if ('anyOf' in schema && 'oneOf' in schema) fail(path, 'combines anyOf and oneOf');
    // oneOf becomes anyOf: the model picks one branch; the call is validated against the original.
    const key = 'anyOf' in schema ? 'anyOf' : 'oneOf';
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) fail(`${path}.${key}`, 'is not a non-empty array of schemas');
    const structural = Object.keys(schema).filter((k) => k !== key && k !== 'nullable' && !ANNOTATIONS.has(k));
    if (structural.length > 0) fail(path, `combines ${key} with ${structural.join(', ')}; strict mode supports ${key} alone`);
    const out: JsonSchema = {};
    if (typeof schema.description === 'string') out.description = schema.description;
    out.anyOf = branches.flatMap((branch, i) => {
      const converted = this.convert(branch, `${path}.${key}[${i}]`, depth);
      // A nested plain anyOf is the same choice, flattened.
      return Object.keys(converted).length === 1 && Array.isArray(converted.anyOf) ? (converted.anyOf as JsonSchema[]) : [converted];
    });
    return schema.nullable === true ? nullable(out) : out;
  }

  private convertRef(schema: JsonSchema, path: string, depth: number): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') fail(`${path}.$ref`, 'is not a string');
    const structural = Object.keys(schema).filter((k) => k !== '$ref' && !ANNOTATIONS.has(k));
    // `$ref` beside other keywords is not allowed in strict mode: inline the definition instead.
    if (structural.length > 0) return this.convert(this.mergeAllOf({ ...schema, $ref: undefined, allOf: [{ $ref: ref }] }, path), path, depth);
    if (ref === '#') return { $ref: '#' };
    const definition = this.definitions.get(ref);
    if (!definition) fail(path, `$ref "${ref.slice(0, 200)}" does not name a local definition (#/$defs/… or #/definitions/…)`);
    if (definition.outputName === undefined) {
      let outputName = definition.name;
      for (let n = 2; this.outputNames.has(outputName); n += 1) outputName = `${definition.name}_${n}`;
      definition.outputName = outputName;
      this.outputNames.add(outputName);
      this.stringLength += outputName.length;
      this.queue.push(definition);
    }
    return { $ref: `#/$defs/${escapePointer(definition.outputName)}` };
  }

  /** allOf merged into one schema: properties joined, required united, other keywords equal. */
  private mergeAllOf(schema: JsonSchema, path: string, seen: ReadonlySet<string> = new Set()): JsonSchema {
    const { allOf, ...rest } = schema;
    if (!Array.isArray(allOf) || allOf.length === 0) fail(`${path}.allOf`, 'is not a non-empty array of schemas');
    let merged: JsonSchema = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    allOf.forEach((part, i) => {
      const partPath = `${path}.allOf[${i}]`;
      this.step(partPath);
      let resolved = this.resolveForMerge(part, partPath, seen);
      if ('allOf' in resolved) resolved = this.mergeAllOf(resolved, partPath, seen);
      merged = mergeSchemas(merged, resolved, partPath);
    });
    return merged;
  }

  private step(path: string): void {
    if (++this.steps > MAX_CONVERSION_STEPS) fail(path, `expands beyond ${MAX_CONVERSION_STEPS} schema nodes when its references are inlined`);
  }

  private resolveForMerge(part: unknown, path: string, seen: ReadonlySet<string>): JsonSchema {
    this.step(path);
    if (!isRecord(part)) fail(path, part === true ? 'accepts any value; strict mode needs a type' : 'is not a schema');
    const ref = part.$ref;
    if (ref === undefined) return part;
    if (typeof ref !== 'string') fail(`${path}.$ref`, 'is not a string');
    const definition = this.definitions.get(ref);
    if (!definition || seen.has(ref)) fail(path, `$ref "${ref.slice(0, 200)}" cannot be inlined (not a local definition, or recursive)`);
    const { $ref: _ref, ...siblings } = part;
    const target = this.resolveForMerge(definition.schema, path, new Set([...seen, ref]));
    return mergeSchemas(target, siblings, path);
  }

  private enumValuesOf(values: unknown, path: string): unknown[] {
    if (!Array.isArray(values) || values.length === 0) fail(`${path}.enum`, 'is not a non-empty array');
    let length = 0;
    for (const value of values) {
      if (value !== null && typeof value === 'object') fail(`${path}.enum`, 'holds objects or arrays; strict mode supports only plain values');
      if (typeof value === 'string') length += value.length;
    }
    if (values.length > STRICT_LIMITS.largeEnumValues && length > STRICT_LIMITS.largeEnumStringLength) {
      fail(`${path}.enum`, `has more than ${STRICT_LIMITS.largeEnumValues} values totalling more than ${STRICT_LIMITS.largeEnumStringLength} characters`);
    }
    this.enumValues += values.length;
    this.stringLength += length;
    return [...values];
  }

  private checkTotals(): void {
    if (this.properties > STRICT_LIMITS.maxProperties) fail('$', `has ${this.properties} properties; strict mode allows ${STRICT_LIMITS.maxProperties}`);
    if (this.enumValues > STRICT_LIMITS.maxEnumValues) fail('$', `has ${this.enumValues} enum values; strict mode allows ${STRICT_LIMITS.maxEnumValues}`);
    if (this.stringLength > STRICT_LIMITS.maxTotalStringLength) {
      fail('$', `its names and enum values total ${this.stringLength} characters; strict mode allows ${STRICT_LIMITS.maxTotalStringLength}`);
    }
  }
}

/** The types a schema allows: its `type`, or what its enum/const values are. */
function typesOf(schema: JsonSchema, path: string): string[] {
  const declared = schema.type;
  let types: string[];
  if (typeof declared === 'string') types = [declared];
  else if (Array.isArray(declared) && declared.length > 0 && declared.every((t) => typeof t === 'string')) types = [...new Set(declared as string[])];
  else if (declared !== undefined) fail(`${path}.type`, 'is not a type name or a list of them');
  else {
    const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
    if (values === undefined || values.length === 0) {
      if (isRecord(schema.properties)) types = ['object'];
      else if ('items' in schema) types = ['array'];
      else fail(path, 'has no type, so it accepts any value; strict mode needs a type');
    } else {
      types = [...new Set(values.map(jsonTypeOf))];
    }
  }
  const unknown = types.find((t) => !JSON_TYPES.has(t));
  if (unknown) fail(`${path}.type`, `"${unknown}" is not a JSON Schema type`);
  return types;
}

/** Objects and arrays count as levels of nesting; the top-level object is level 1. */
function checkDepth(path: string, depth: number): void {
  if (depth > STRICT_LIMITS.maxDepth) fail(path, `nests objects and arrays deeper than ${STRICT_LIMITS.maxDepth} levels`);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Optional properties become required ones that accept null. */
function nullable(schema: JsonSchema): JsonSchema {
  if ('$ref' in schema) return { anyOf: [schema, { type: 'null' }] };
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    return branches.some((b) => b.type === 'null') ? schema : { ...schema, anyOf: [...branches, { type: 'null' }] };
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.includes('null')) return schema;
  const out: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}

function mergeSchemas(a: JsonSchema, b: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (value === undefined) continue;
    if (!(key in out) || ANNOTATIONS.has(key)) {
      if (!(key in out)) out[key] = value;
      continue;
    }
    if (key === 'properties' && isRecord(out.properties) && isRecord(value)) {
      const properties: JsonSchema = { ...out.properties };
      for (const [name, schema] of Object.entries(value)) {
        if (name in properties && !sameJson(properties[name], schema)) fail(path, `allOf declares property "${name}" twice, differently`);
        properties[name] = schema;
      }
      out.properties = properties;
    } else if (key === 'required' && Array.isArray(out.required) && Array.isArray(value)) {
      out.required = [...new Set([...out.required, ...value])];
    } else if (!sameJson(out[key], value)) {
      fail(path, `allOf gives "${key}" two different values`);
    }
  }
  return out;
}

function copyNumberConstraints(schema: JsonSchema, out: JsonSchema): void {
  for (const key of NUMBER_CONSTRAINTS) {
    if (typeof schema[key] === 'number') out[key] = schema[key];
  }
  // Draft 4 wrote exclusive bounds as booleans beside minimum/maximum.
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number') {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
}

/**
 * Strict mode compiles patterns into a grammar: lookaround and back-references are not
 * supported. Such patterns (and ones that are not valid regular expressions) are dropped.
 */
export function isStrictPattern(pattern: string): boolean {
  if (/\(\?<?[=!]|\\[1-9]|\\k</.test(pattern)) return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * OpenAI's strict mode — and the strict catalog formats, which follow it — makes every optional
 * property required and nullable, so a model sends `null` for what it means to leave out. This
 * removes those nulls: a `null` for a property that its object schema does not require and whose
 * own schema does not accept null means "absent". It applies at every level the strict conversion
 * reaches (nested objects, array items, local `$ref`s, `allOf`, `anyOf`/`oneOf` branches), so the
 * upstream receives what a non-strict client would have sent. A property the upstream declared
 * nullable keeps its null; a property no schema declares is left as it is, for the validator to judge.
 *
 * The arguments are not changed; a copy is made only along the paths where a null was removed.
 */
export function withoutAbsentNulls(schema: unknown, args: Record<string, unknown>): Record<string, unknown> {
  const walk = new AbsentNullWalk(schema);
  try {
    return walk.object([schema], args);
  } catch (error) {
    // A schema too intricate to follow within the budget: the arguments go to the validator as sent.
    if (error instanceof BudgetExceeded) return args;
    throw error;
  }
}

/** Schema nodes looked at per call at most; a hostile schema (allOf/anyOf fan-out, $ref chains) stops here. */
export const MAX_SCHEMA_STEPS = 20_000;
const MAX_REF_HOPS = 32;

type Schema = Record<string, unknown>;

class BudgetExceeded extends Error {}

class AbsentNullWalk {
  private steps = 0;
  private readonly nullable = new Map<unknown, boolean>();

  constructor(private readonly root: unknown) {}

  object(schemas: unknown[], value: Record<string, unknown>): Record<string, unknown> {
    return this.objectOf(this.alternatives(schemas), value);
  }

  /** `object` with the schemas that may describe the value already found (the same for every item of an array). */
  private objectOf(candidates: Schema[], value: Record<string, unknown>): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const inner = value[key];
      const declarations: unknown[] = [];
      let required = false;
      for (const candidate of candidates) {
        const properties = candidate.properties;
        if (!isSchema(properties) || !Object.hasOwn(properties, key)) continue;
        declarations.push(properties[key]);
        if (Array.isArray(candidate.required) && candidate.required.includes(key)) required = true;
      }
      if (declarations.length === 0) continue;
      let replacement: unknown = inner;
      if (inner === null) {
        if (!required && !declarations.some((declaration) => this.declaresNull(declaration))) replacement = ABSENT;
      } else if (Array.isArray(inner)) {
        replacement = this.array(declarations, inner);
      } else if (typeof inner === 'object') {
        replacement = this.object(declarations, inner as Record<string, unknown>);
      }
      if (replacement === inner) continue;
      out ??= { ...value };
      if (replacement === ABSENT) delete out[key];
      else out[key] = replacement;
    }
    return out ?? value;
  }

  private array(schemas: unknown[], value: unknown[]): unknown[] {
    const items = this.alternatives(schemas)
      .map((candidate) => candidate.items)
      .filter((item) => item !== undefined && !Array.isArray(item));
    if (items.length === 0) return value;
    let candidates: Schema[] | undefined;
    let out: unknown[] | undefined;
    value.forEach((element, index) => {
      let replacement: unknown = element;
      if (Array.isArray(element)) replacement = this.array(items, element);
      else if (element !== null && typeof element === 'object') replacement = this.objectOf((candidates ??= this.alternatives(items)), element as Record<string, unknown>);
      if (replacement === element) return;
      out ??= [...value];
      out[index] = replacement;
    });
    return out ?? value;
  }

  /** Every schema that may describe the value: each resolved, with its allOf parts and anyOf/oneOf branches. */
  private alternatives(schemas: unknown[]): Schema[] {
    const found: Schema[] = [];
    const pending = [...schemas];
    while (pending.length > 0) {
      const schema = this.resolve(pending.pop(), 0);
      if (!schema) continue;
      found.push(schema);
      for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
        const parts = schema[key];
        if (Array.isArray(parts)) pending.push(...parts);
      }
    }
    return found;
  }

  /** Whether a schema admits null: by type, nullable, enum, const, a branch that does, or by not constraining the type at all. */
  /** acceptsNull of a property's declaration, answered once per declaration (a list's items share theirs). */
  private declaresNull(declaration: unknown): boolean {
    let accepts = this.nullable.get(declaration);
    if (accepts === undefined) this.nullable.set(declaration, (accepts = this.acceptsNull(declaration, 0)));
    return accepts;
  }

  private acceptsNull(node: unknown, depth: number): boolean {
    if (node === true) return true;
    const schema = this.resolve(node, 0);
    if (!schema || depth > MAX_REF_HOPS) return false;
    const { type } = schema;
    if (type === 'null' || (Array.isArray(type) && type.includes('null')) || schema.nullable === true) return true;
    if ('const' in schema) return schema.const === null;
    if (Array.isArray(schema.enum)) return schema.enum.includes(null);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) return branches.some((branch) => this.acceptsNull(branch, depth + 1));
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      if (!schema.allOf.every((part) => this.acceptsNull(part, depth + 1))) return false;
    }
    return type === undefined;
  }

  /** A schema object, `$ref`s to local definitions followed; undefined for anything else. */
  private resolve(node: unknown, hops: number): Schema | undefined {
    if (++this.steps > MAX_SCHEMA_STEPS) throw new BudgetExceeded();
    if (!isSchema(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    if (hops >= MAX_REF_HOPS) return undefined;
    return this.resolve(this.definition(ref), hops + 1);
  }

  private definition(ref: string): unknown {
    if (ref === '#') return this.root;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    if (!match || !isSchema(this.root)) return undefined;
    const container = this.root[match[1]!];
    if (!isSchema(container)) return undefined;
    const name = match[2]!.replace(/~1/g, '/').replace(/~0/g, '~');
    return Object.hasOwn(container, name) ? container[name] : undefined;
  }
}

const ABSENT = Symbol('absent');

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

import Ajv from 'ajv';
import fc from 'fast-check';
import { toStrictSchema } from '../../catalog/domain/function-schema.js';
import { MAX_SCHEMA_STEPS, withoutAbsentNulls } from './absent-nulls.js';

type Schema = Record<string, unknown>;

describe('withoutAbsentNulls', () => {
  const readTextFile = {
    type: 'object',
    properties: { path: { type: 'string' }, tail: { type: 'number' }, head: { type: 'number' } },
    required: ['path'],
  };

  it('drops a null for an optional property, as a strict-mode model sends it', () => {
    expect(withoutAbsentNulls(readTextFile, { path: '/a', head: null, tail: null })).toEqual({ path: '/a' });
    expect(withoutAbsentNulls(readTextFile, { path: '/a', head: 3, tail: null })).toEqual({ path: '/a', head: 3 });
  });

  it('keeps a null the upstream allows, or for a required property, or one no schema declares', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        c: { type: 'string', nullable: true },
        d: { enum: ['x', null] },
        e: {},
        f: { type: 'string' },
      },
      required: ['f'],
    };
    const args = { a: null, b: null, c: null, d: null, e: null, f: null, g: null };
    expect(withoutAbsentNulls(schema, args)).toBe(args);
  });

  it('reaches nested objects, array items, $refs, allOf and anyOf branches', () => {
    const schema = {
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' }, label: { type: 'string' } }, required: ['x'] } },
      properties: {
        points: { type: 'array', items: { $ref: '#/$defs/point' } },
        options: { allOf: [{ type: 'object', properties: { depth: { type: 'integer' } } }, { properties: { mode: { type: 'string' } } }] },
        target: { anyOf: [{ type: 'object', properties: { url: { type: 'string' } } }, { type: 'string' }] },
      },
    };
    const args = { points: [{ x: 1, label: null }, { x: 2 }], options: { depth: null, mode: null }, target: { url: null } };
    expect(withoutAbsentNulls(schema, args)).toEqual({ points: [{ x: 1 }, { x: 2 }], options: {}, target: {} });
    // Nothing of the caller's arguments changes.
    expect(args.points[0]).toEqual({ x: 1, label: null });
  });

  it('answers the same object when there is nothing to remove', () => {
    const args = { path: '/a', head: 1 };
    expect(withoutAbsentNulls(readTextFile, args)).toBe(args);
  });

  it('stops on a hostile schema within its budget and leaves the arguments alone', () => {
    // allOf fan-out that doubles at each level, and a $ref cycle.
    let fan: Schema = { type: 'object', properties: { a: { type: 'string' } } };
    for (let i = 0; i < 30; i++) fan = { allOf: [fan, fan] };
    const args = { a: null };
    const started = performance.now();
    expect(withoutAbsentNulls(fan, args)).toBe(args);
    expect(performance.now() - started).toBeLessThan(1000);
    const cycle = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' };
    expect(withoutAbsentNulls(cycle, { a: null })).toEqual({ a: null });
    expect(MAX_SCHEMA_STEPS).toBeGreaterThan(1000);
  });

  it('removes the nulls from every item of a long list: the items schema is looked at once, not per item', () => {
    const schema = { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { note: { type: 'string' } } } } } };
    const rows = Array.from({ length: 3 * MAX_SCHEMA_STEPS }, (_, i) => (i % 2 === 0 ? { note: null } : { note: 'kept' }));
    const out = withoutAbsentNulls(schema, { rows }) as { rows: Record<string, unknown>[] };
    expect(out.rows).toHaveLength(rows.length);
    expect(out.rows.every((row, i) => (i % 2 === 0 ? !('note' in row) : row.note === 'kept'))).toBe(true);
    expect(rows[0]).toEqual({ note: null });
  });

  it('never throws, whatever the schema and arguments', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), (schema, args) => {
        withoutAbsentNulls(schema, args as Record<string, unknown>);
      }),
      { numRuns: 500 },
    );
  });

  it('turns every call built from the strict definition back into what a non-strict client sends', () => {
    const ajv = new Ajv.default({ strict: false });
    fc.assert(
      fc.property(objectWithValue(3), ([schema, value]) => {
        const strict = toStrictSchema(schema);
        if (!strict.ok) throw new Error(strict.reason);
        const fromStrictClient = withNulls(schema, value);
        // What the strict definition makes a model send is valid for it…
        expect(ajv.validate(strict.schema, fromStrictClient)).toBe(true);
        // …and is what the upstream would have been sent by a non-strict client.
        expect(withoutAbsentNulls(schema, fromStrictClient as Record<string, unknown>)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});

/** An object schema of optional and required properties (scalars, nested objects, arrays of objects) and a value valid for it without nulls. */
function objectWithValue(depth: number): fc.Arbitrary<[Schema, Record<string, unknown>]> {
  const scalar: fc.Arbitrary<[Schema, unknown]> = fc.oneof(
    fc.string().map((s): [Schema, unknown] => [{ type: 'string' }, s]),
    fc.integer().map((n): [Schema, unknown] => [{ type: 'integer' }, n]),
    fc.boolean().map((b): [Schema, unknown] => [{ type: 'boolean' }, b]),
  );
  const child: fc.Arbitrary<[Schema, unknown]> =
    depth <= 0
      ? scalar
      : fc.oneof(
          scalar,
          objectWithValue(depth - 1),
          objectWithValue(depth - 1).map(([items, item]): [Schema, unknown] => [{ type: 'array', items }, [item]]),
        );
  return fc
    .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), child, fc.boolean(), fc.boolean()), { selector: ([name]) => name, maxLength: 5 })
    .map((props): [Schema, Record<string, unknown>] => {
      const properties: Schema = {};
      const required: string[] = [];
      const value: Record<string, unknown> = {};
      for (const [name, [schema, inner], isRequired, present] of props) {
        properties[name] = schema;
        if (isRequired) required.push(name);
        if (isRequired || present) value[name] = inner;
      }
      return [{ type: 'object', properties, required }, value];
    });
}

/** The value as a strict-mode model sends it: every optional property present, null where absent. */
function withNulls(schema: Schema, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withNulls(schema.items as Schema, item));
  if (value === null || typeof value !== 'object') return value;
  const properties = schema.properties as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(properties)) {
    out[name] = name in value ? withNulls(properties[name]!, (value as Record<string, unknown>)[name]) : null;
  }
  return out;
}

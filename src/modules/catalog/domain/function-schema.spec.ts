import { isStrictPattern, JsonSchema, STRICT_LIMITS, toFunctionParameters, toStrictSchema } from './function-schema.js';

function strict(schema: unknown): JsonSchema {
  const result = toStrictSchema(schema);
  if (!result.ok) throw new Error(`expected a conversion, got: ${result.reason}`);
  return result.schema;
}

function refused(schema: unknown): string {
  const result = toStrictSchema(schema);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.schema)}`);
  return result.reason;
}

describe('toStrictSchema (OpenAI strict mode)', () => {
  it('closes objects and makes optional properties required but nullable', () => {
    expect(
      strict({
        type: 'object',
        properties: { message: { type: 'string', description: 'what to say' }, times: { type: 'integer', minimum: 1 } },
        required: ['message'],
      }),
    ).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'what to say' }, times: { type: ['integer', 'null'], minimum: 1 } },
      required: ['message', 'times'],
      additionalProperties: false,
    });
  });

  it('turns a tool without arguments into an empty closed object', () => {
    expect(strict({ type: 'object' })).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
    expect(strict({ type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' })).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  it('converts nested objects and arrays of objects at every level', () => {
    const out = strict({
      type: 'object',
      properties: {
        address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street'], additionalProperties: true },
        items: {
          type: 'array',
          minItems: 1,
          items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'number', exclusiveMinimum: 0 } }, required: ['sku', 'qty'] },
        },
      },
      required: ['address'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: ['string', 'null'] } },
          required: ['street', 'zip'],
          additionalProperties: false,
        },
        items: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: 'number', exclusiveMinimum: 0 } },
            required: ['sku', 'qty'],
            additionalProperties: false,
          },
          minItems: 1,
        },
      },
      required: ['address', 'items'],
      additionalProperties: false,
    });
  });

  it('adds null to the enum of an optional enum property, and turns const into enum', () => {
    const out = strict({ type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'] }, kind: { const: 'x' } }, required: ['kind'] });
    expect(out.properties).toEqual({ mode: { type: ['string', 'null'], enum: ['a', 'b', null] }, kind: { type: 'string', enum: ['x'] } });
  });

  it('keeps a property that already accepts null as it is', () => {
    const out = strict({ type: 'object', properties: { note: { type: ['string', 'null'] } } });
    expect(out.properties).toEqual({ note: { type: ['string', 'null'] } });
  });

  it('reads OpenAPI-style nullable', () => {
    const out = strict({ type: 'object', properties: { note: { type: 'string', nullable: true } }, required: ['note'] });
    expect(out.properties).toEqual({ note: { type: ['string', 'null'] } });
  });

  it('converts anyOf branch by branch and makes an optional anyOf nullable with a null branch', () => {
    const out = strict({
      type: 'object',
      properties: {
        target: { anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } } }], description: 'by name or id' },
      },
    });
    expect(out.properties).toEqual({
      target: {
        description: 'by name or id',
        anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: ['integer', 'null'] } }, required: ['id'], additionalProperties: false }, { type: 'null' }],
      },
    });
  });

  it('treats oneOf as anyOf (the call is still validated against the original)', () => {
    const out = strict({ type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['v'] });
    expect(out.properties).toEqual({ v: { anyOf: [{ type: 'string' }, { type: 'number' }] } });
  });

  it('does not add a second null branch to a union that already has one', () => {
    const out = strict({ type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'null' }] } } });
    expect(out.properties).toEqual({ v: { anyOf: [{ type: 'string' }, { type: 'null' }] } });
  });

  it('refuses anyOf mixed with structural keywords', () => {
    expect(refused({ type: 'object', properties: { v: { type: 'string', anyOf: [{ minLength: 1 }, { pattern: 'x' }] } } })).toMatch(
      /^\$\.properties\.v: combines anyOf with type/,
    );
  });

  it('merges allOf of object parts, including local definitions', () => {
    const out = strict({
      type: 'object',
      $defs: { Base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      properties: {
        item: { allOf: [{ $ref: '#/$defs/Base' }, { properties: { label: { type: 'string' } } }] },
      },
      required: ['item'],
    });
    expect(out.properties).toEqual({
      item: {
        type: 'object',
        properties: { id: { type: 'string' }, label: { type: ['string', 'null'] } },
        required: ['id', 'label'],
        additionalProperties: false,
      },
    });
    expect(out.$defs).toBeUndefined(); // inlined, nothing left to reference
  });

  it('refuses allOf parts that contradict each other', () => {
    expect(refused({ type: 'object', properties: { v: { allOf: [{ type: 'string' }, { type: 'number' }] } } })).toMatch(/allOf gives "type" two different values/);
  });

  it('keeps local $ref, converting the definitions it uses (and only those) under $defs', () => {
    const out = strict({
      type: 'object',
      definitions: {
        Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x'] },
        Unused: { type: 'object', additionalProperties: { type: 'string' } },
      },
      properties: { from: { $ref: '#/definitions/Point' }, to: { $ref: '#/definitions/Point', description: 'end' } },
      required: ['from'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: { from: { $ref: '#/$defs/Point' }, to: { anyOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }] } },
      required: ['from', 'to'],
      additionalProperties: false,
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: ['number', 'null'] } }, required: ['x', 'y'], additionalProperties: false },
      },
    });
  });

  it('keeps recursive references (a tree of nodes)', () => {
    const out = strict({
      type: 'object',
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['name', 'children'] } },
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
    });
    expect(out.$defs).toEqual({
      Node: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        required: ['name', 'children'],
        additionalProperties: false,
      },
    });
  });

  it.each([
    ['an external $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } }, /\$\.properties\.a: \$ref "https:\/\/example.com\/schema.json" does not name a local definition/],
    ['a $ref to a missing definition', { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }, /does not name a local definition/],
    ['a free-form map (additionalProperties)', { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } }, /\$\.properties\.tags: is a map \(additionalProperties\)/],
    ['a free-form map (patternProperties)', { type: 'object', properties: { tags: { type: 'object', patternProperties: { '^x-': { type: 'string' } } } } }, /is a map \(patternProperties\)/],
    ['a nested object of any shape', { type: 'object', properties: { meta: { type: 'object' } } }, /\$\.properties\.meta: is an object of any shape/],
    ['a value of any type', { type: 'object', properties: { value: {} } }, /\$\.properties\.value: has no type/],
    ['a true schema', { type: 'object', properties: { value: true } }, /accepts any value/],
    ['an array without an item schema', { type: 'object', properties: { list: { type: 'array' } } }, /\$\.properties\.list: is an array of any items/],
    ['a tuple', { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } } }, /is a tuple/],
    ['a draft-4 tuple', { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } }, /is a tuple/],
    ['a top-level anyOf', { anyOf: [{ type: 'object' }, { type: 'object' }] }, /^\$: anyOf at the top level/],
    ['a top-level non-object', { type: 'string' }, /^\$: the input schema must have type "object"/],
    ['an enum of objects', { type: 'object', properties: { v: { enum: [{ a: 1 }] } } }, /holds objects or arrays/],
    ['an unknown type', { type: 'object', properties: { v: { type: 'date' } } }, /"date" is not a JSON Schema type/],
  ])('names why %s cannot be converted', (_what, schema, reason) => {
    expect(refused(schema)).toMatch(reason);
  });

  it('keeps supported string formats and patterns, drops the others', () => {
    const out = strict({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid', pattern: '^[0-9a-f-]+$' },
        site: { type: 'string', format: 'uri' },
        word: { type: 'string', pattern: '^(?!admin).*$' },
        twice: { type: 'string', pattern: '(a)\\1' },
        broken: { type: 'string', pattern: '([' },
      },
      required: ['when', 'id', 'site', 'word', 'twice', 'broken'],
    });
    expect(out.properties).toEqual({
      when: { type: 'string', format: 'date-time' },
      id: { type: 'string', pattern: '^[0-9a-f-]+$', format: 'uuid' },
      site: { type: 'string' },
      word: { type: 'string' },
      twice: { type: 'string' },
      broken: { type: 'string' },
    });
  });

  it('drops constraint and annotation keywords strict mode does not take, keeps title and description', () => {
    const out = strict({
      type: 'object',
      title: 'Args',
      description: 'the arguments',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 10, default: 'x', examples: ['y'], 'x-vendor': true },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 5, contains: { const: 'a' } },
        n: { type: 'number', not: { const: 3 }, multipleOf: 0.5, maximum: 10 },
        legacy: { type: 'integer', minimum: 0, exclusiveMinimum: true },
      },
      required: ['name', 'tags', 'n', 'legacy'],
      minProperties: 1,
      if: { properties: { n: { const: 1 } } },
      then: { required: ['tags'] },
    });
    expect(out).toEqual({
      type: 'object',
      title: 'Args',
      description: 'the arguments',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
        n: { type: 'number', maximum: 10, multipleOf: 0.5 },
        legacy: { type: 'integer', exclusiveMinimum: 0 },
      },
      required: ['name', 'tags', 'n', 'legacy'],
      additionalProperties: false,
    });
  });

  it('infers the type of an untyped enum', () => {
    expect(strict({ type: 'object', properties: { level: { enum: ['low', 'high'] } }, required: ['level'] }).properties).toEqual({
      level: { type: 'string', enum: ['low', 'high'] },
    });
  });

  it('refuses objects nested deeper than the limit', () => {
    let schema: JsonSchema = { type: 'string' };
    for (let i = 0; i < STRICT_LIMITS.maxDepth; i += 1) schema = { type: 'object', properties: { next: schema }, required: ['next'] };
    expect(toStrictSchema(schema).ok).toBe(true); // exactly at the limit
    expect(refused({ type: 'object', properties: { deeper: schema } })).toMatch(/nests objects and arrays deeper than 10 levels/);
  });

  it('refuses schemas over the property and enum limits', () => {
    const many = Object.fromEntries(Array.from({ length: STRICT_LIMITS.maxProperties + 1 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(refused({ type: 'object', properties: many })).toMatch(/^\$: has 5001 properties/);
    const values = Array.from({ length: STRICT_LIMITS.maxEnumValues + 1 }, (_, i) => i);
    expect(refused({ type: 'object', properties: { v: { type: 'integer', enum: values } } })).toMatch(/1001 enum values/);
  });

  it('merges a top-level allOf, and refuses a top-level union hidden in one', () => {
    expect(strict({ allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { required: ['a'] }] })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(refused({ allOf: [{ anyOf: [{ type: 'object' }] }] })).toMatch(/^\$: anyOf at the top level/);
  });

  it('never changes its input', () => {
    const input = { type: 'object', properties: { a: { type: 'string' } } };
    const copy = structuredClone(input);
    strict(input);
    expect(input).toEqual(copy);
  });
});

describe('toFunctionParameters (non-strict)', () => {
  it('passes the schema through, with an object type and properties at the top', () => {
    expect(toFunctionParameters({ type: 'object', properties: { a: { type: 'string', minLength: 2 } }, required: ['a'] })).toEqual({
      ok: true,
      schema: { type: 'object', properties: { a: { type: 'string', minLength: 2 } }, required: ['a'] },
    });
    expect(toFunctionParameters({ type: 'object', $schema: 'https://json-schema.org/draft/2020-12/schema' })).toEqual({
      ok: true,
      schema: { type: 'object', properties: {} },
    });
  });

  it('refuses what the APIs refuse at the top level', () => {
    expect(toFunctionParameters({ oneOf: [{ type: 'object' }] })).toEqual({ ok: false, reason: expect.stringMatching(/^\$: oneOf at the top level/) });
    expect(toFunctionParameters({ type: 'array' })).toEqual({ ok: false, reason: expect.stringMatching(/must have type "object"/) });
  });
});

describe('isStrictPattern', () => {
  it.each([
    ['^[a-z]+$', true],
    ['^(?<year>\\d{4})$', true],
    ['^(?=.*\\d).+$', false],
    ['(?<!x)y', false],
    ['(a)\\1', false],
    ['[', false],
  ])('%s → %s', (pattern, expected) => {
    expect(isStrictPattern(pattern)).toBe(expected);
  });
});

describe('strict conversion work', () => {
  it('stops a schema whose references expand exponentially, quickly and with a reason', () => {
    const definitions: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) definitions[`d${i}`] = { allOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    definitions.d30 = { type: 'object', properties: { x: { type: 'string' } } };
    const started = performance.now();
    const conversion = toStrictSchema({ type: 'object', properties: { a: { $ref: '#/definitions/d0', description: 'x' } }, definitions });
    expect(performance.now() - started).toBeLessThan(500);
    expect(conversion).toEqual({ ok: false, reason: expect.stringMatching(/expands beyond 10000 schema nodes/) });
  });

  it('still converts a few levels of shared references', () => {
    const definitions: Record<string, unknown> = {};
    for (let i = 0; i < 6; i++) definitions[`d${i}`] = { allOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    definitions.d6 = { type: 'object', properties: { x: { type: 'string' } } };
    expect(toStrictSchema({ type: 'object', properties: { a: { $ref: '#/definitions/d0', description: 'x' } }, definitions }).ok).toBe(true);
  });
});
